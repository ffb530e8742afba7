package io.agentgateway.launcher.support;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for an upstream on a {@link LoopbackServer} that records the requests it gets ({@link RecordingUpstream},
 * {@link ProxyUpstream}, {@code RealApiStandIn}); tests tell theirs apart by path.
 *
 * @param <R> what it records of a request
 */
public abstract class RecordingServer<R extends RecordingServer.Recorded> implements AutoCloseable {
    /** A recorded request: at least its path as sent (not decoded). */
    public interface Recorded {
        String rawPath();
    }

    /** Every request, in arrival order. */
    protected final List<R> requests = new CopyOnWriteArrayList<>();
    private final LoopbackServer server;

    /** @param concurrent see {@link LoopbackServer#start} */
    public RecordingServer(String name, boolean concurrent) {
        this.server = LoopbackServer.start(name, concurrent, this::handle);
    }

    /** Records and answers one exchange. */
    protected abstract void handle(HttpExchange exchange) throws IOException;

    public String baseUrl() {
        return server.baseUrl();
    }

    /** The requests whose path starts with {@code prefix}, in arrival order. */
    public List<R> requestsTo(String prefix) {
        return requests.stream().filter(r -> r.rawPath().startsWith(prefix)).toList();
    }

    @Override
    public void close() {
        server.close();
    }
}
