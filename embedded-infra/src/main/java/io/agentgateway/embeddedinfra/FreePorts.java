package io.agentgateway.embeddedinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.function.IntSupplier;

/** Picks a currently free loopback port for servers that must be told a concrete port up front. */
public final class FreePorts {
    private static final int ATTEMPTS = 20;

    private FreePorts() {}

    public static int pick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /**
     * A free port that is none of {@code taken}: ports chosen for a server that has not bound them yet (the
     * broker's client port) are free to the operating system too, which handed one out again as the broker's
     * controller port (the fault suite's embedded default: "two listeners on the same port", no start).
     */
    public static int pickOtherThan(int... taken) {
        return pickOtherThan(FreePorts::pick, taken);
    }

    static int pickOtherThan(IntSupplier source, int... taken) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = source.getAsInt();
            if (Arrays.stream(taken).noneMatch(t -> t == port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port other than " + Arrays.toString(taken));
    }
}
