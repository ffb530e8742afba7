package io.agentgateway.launcher.support;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.beans.PropertyChangeListener;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.catalina.Context;
import org.apache.catalina.Loader;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/**
 * The wiring the in-process upstream MCP servers of the tests share ({@link McpUpstreamServer},
 * {@code McpAskingUpstream}): the official Java SDK's servlet transports on an embedded Tomcat, streamable HTTP at
 * {@code /mcp} and HTTP+SSE at {@code /sse} (messages to {@code /message}), every HTTP request shown to the
 * owner's {@link Observer} before the SDK's servlet answers it, and one SDK server per transport, which the owner
 * builds (its tools, resources, capabilities).
 */
public final class McpSdkUpstream implements AutoCloseable {
    /** Sees every HTTP request before the SDK does. */
    @FunctionalInterface
    public interface Observer {
        /** @return the request the SDK's servlet then reads: this one, or a wrapper that replays what was read */
        HttpServletRequest observe(HttpServletRequest request) throws IOException;
    }

    private final Tomcat tomcat;
    private final int port;
    private final List<McpSyncServer> servers;

    private McpSdkUpstream(Tomcat tomcat, int port, List<McpSyncServer> servers) {
        this.tomcat = tomcat;
        this.port = port;
        this.servers = servers;
    }

    /**
     * @param name       names the server's temporary Tomcat folder
     * @param fixedPort  0 for any free port; a predecessor's port to stand for that upstream restarted (no sessions)
     * @param streamable adds to the streamable HTTP transport's builder (e.g. a context extractor)
     * @param server     builds an SDK server on a transport's specification; called once per transport
     */
    public static McpSdkUpstream start(String name, int fixedPort,
                                UnaryOperator<HttpServletStreamableServerTransportProvider.Builder> streamable,
                                Observer observer, Function<McpServer.SyncSpecification<?>, McpSyncServer> server) {
        try {
            var streamableTransport = streamable.apply(HttpServletStreamableServerTransportProvider.builder().mcpEndpoint("/mcp")).build();
            var sseTransport = HttpServletSseServerTransportProvider.builder().sseEndpoint("/sse").messageEndpoint("/message").build();
            Tomcat tomcat = new Tomcat();
            tomcat.setBaseDir(Files.createTempDirectory(name + "-").toString());
            tomcat.setPort(fixedPort);
            Context context = tomcat.addContext("", null);
            context.setLoader(new TestClassLoaderLoader());
            addServlet(context, "streamable", new Observed(streamableTransport, observer), "/mcp");
            addServlet(context, "sse", new Observed(sseTransport, observer), "/sse", "/message");
            tomcat.getConnector();
            tomcat.start();
            List<McpSyncServer> servers = List.of(server.apply(McpServer.sync(streamableTransport)), server.apply(McpServer.sync(sseTransport)));
            return new McpSdkUpstream(tomcat, tomcat.getConnector().getLocalPort(), servers);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the upstream MCP server " + name, e);
        }
    }

    private static void addServlet(Context context, String name, HttpServlet servlet, String... patterns) {
        Wrapper wrapper = Tomcat.addServlet(context, name, servlet);
        wrapper.setAsyncSupported(true);
        for (String pattern : patterns) {
            context.addServletMappingDecoded(pattern, name);
        }
    }

    int port() {
        return port;
    }

    public String streamableUrl() {
        return "http://127.0.0.1:" + port + "/mcp";
    }

    public String sseUrl() {
        return "http://127.0.0.1:" + port + "/sse";
    }

    /** The SDK servers, one per transport (streamable HTTP, HTTP+SSE). */
    public List<McpSyncServer> servers() {
        return servers;
    }

    @Override
    public void close() {
        servers.forEach(McpSyncServer::closeGracefully);
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Serves with the tests' own class loader instead of a web application class loader. Tomcat makes a request's
     * thread context class loader its context's; a thread started from a request inherits it, Reactor's shared
     * bounded-elastic workers included (the SDK's sync servers run there), and the gateway in this JVM then runs on
     * those threads long after this Tomcat stopped: a library initialized there first (SpEL's compiler, when the
     * console renders a page) would fail for good, asking a stopped web application class loader for a resource.
     */
    private static final class TestClassLoaderLoader implements Loader {
        private Context context;

        @Override
        public ClassLoader getClassLoader() {
            return McpSdkUpstream.class.getClassLoader();
        }

        @Override
        public Context getContext() {
            return context;
        }

        @Override
        public void setContext(Context context) {
            this.context = context;
        }

        @Override
        public boolean getDelegate() {
            return true;
        }

        @Override
        public void setDelegate(boolean delegate) {
            // always the tests' class loader
        }

        @Override
        public void backgroundProcess() {
            // nothing to reload
        }

        @Override
        public boolean modified() {
            return false;
        }

        @Override
        public void addPropertyChangeListener(PropertyChangeListener listener) {
            // no properties change
        }

        @Override
        public void removePropertyChangeListener(PropertyChangeListener listener) {
            // no properties change
        }
    }

    /** Shows each request to the observer, then lets the SDK's servlet answer it. */
    private static final class Observed extends HttpServlet {
        private final HttpServlet delegate;
        private final Observer observer;

        Observed(HttpServlet delegate, Observer observer) {
            this.delegate = delegate;
            this.observer = observer;
        }

        @Override
        public void init() throws ServletException {
            delegate.init(getServletConfig());
        }

        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
            delegate.service(observer.observe(request), response);
        }
    }
}
