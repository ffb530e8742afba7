package io.agentgateway.launcher.support;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

/**
 * A real HTTP server (the JDK's) on a free loopback port, one handler for every path: what the tests' stand-ins for
 * upstreams, webhooks and token endpoints ({@link RecordingUpstream}, {@link ProxyUpstream}, {@code RealApiStandIn},
 * {@link OAuthTokenEndpoint}, {@link ChatWebhook}) are served by.
 */
public final class LoopbackServer implements AutoCloseable {
    private final HttpServer server;

    private LoopbackServer(HttpServer server) {
        this.server = server;
    }

    /**
     * @param concurrent whether each exchange is answered on a thread of its own (daemon threads named {@code name}), so
     *                   that a slow answer does not hold up the others; else one at a time on the server's own thread
     */
    public static LoopbackServer start(String name, boolean concurrent, HttpHandler handler) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            if (concurrent) {
                server.setExecutor(Executors.newCachedThreadPool(runnable -> {
                    Thread thread = new Thread(runnable, name);
                    thread.setDaemon(true);
                    return thread;
                }));
            }
            server.createContext("/", handler);
            server.start();
            return new LoopbackServer(server);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
