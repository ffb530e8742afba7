package io.agentgateway.launcher.edge;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A plain TCP relay on loopback to a fixed target: whatever arrives on its port goes to the target and
 * back, byte for byte. In the tests it is "a second address of the gateway" (a balancer, a replica, a
 * DNS name of its own): a connection's URL pointing at it reaches the gateway without naming one of the
 * gateway's own listeners.
 */
final class TcpRelay implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;

    private TcpRelay(ServerSocket server, int targetPort) {
        this.server = server;
        this.targetPort = targetPort;
    }

    static TcpRelay to(int targetPort) {
        try {
            TcpRelay relay = new TcpRelay(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), targetPort);
            Thread acceptor = new Thread(relay::accept, "tcp-relay-" + relay.port());
            acceptor.setDaemon(true);
            acceptor.start();
            return relay;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                pump(client, target);
                pump(target, client);
            } catch (IOException e) {
                // closed, or the target refused: the next connection tries again
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // one side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-relay-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
