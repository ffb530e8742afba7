package io.agentgateway.benchmark.load;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * The load generator's HTTP client: Reactor Netty with a fixed pool of kept-alive connections and a
 * pre-encoded body. It shares the two cores with the gateway it measures, so it must cost as little
 * per call as possible (the JDK's HttpClient costs several times more CPU per request), and its
 * event loop is its own, apart from the gateway's.
 */
public final class NettyLoadClient implements AutoCloseable {
    private final ConnectionProvider connections;
    private final LoopResources loop;
    private final HttpClient http;

    public NettyLoadClient(String baseUrl, String bearer, int maxConnections) {
        connections = ConnectionProvider.builder("bench-load").maxConnections(maxConnections)
                .pendingAcquireMaxCount(-1).build();
        loop = LoopResources.create("bench-load", 1, true);
        http = HttpClient.create(connections).runOn(loop).baseUrl(baseUrl)
                .responseTimeout(Duration.ofSeconds(30))
                .headers(h -> h.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + bearer)
                        .set(HttpHeaderNames.CONTENT_TYPE, "application/json"));
    }

    /** A call that POSTs {@code jsonBody} to {@code path} and succeeds on a 200. */
    public LoadRunner.Call post(String path, byte[] jsonBody) {
        return () -> {
            CompletableFuture<Boolean> done = new CompletableFuture<>();
            http.post().uri(path)
                    .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(jsonBody)))
                    .responseSingle((response, body) -> body.then(Mono.just(response.status().code() == 200)))
                    .subscribe(done::complete, done::completeExceptionally);
            return done;
        };
    }

    /** A call that GETs {@code path} with the extra header pairs and succeeds on a 200 (the body read whole). */
    public LoadRunner.Call get(String path, String... headerPairs) {
        HttpClient withHeaders = http.headers(h -> {
            for (int i = 0; i < headerPairs.length; i += 2) {
                h.set(headerPairs[i], headerPairs[i + 1]);
            }
        });
        return () -> {
            CompletableFuture<Boolean> done = new CompletableFuture<>();
            withHeaders.get().uri(path)
                    .responseSingle((response, body) -> body.then(Mono.just(response.status().code() == 200)))
                    .subscribe(done::complete, done::completeExceptionally);
            return done;
        };
    }

    @Override
    public void close() {
        connections.disposeLater().block(Duration.ofSeconds(5));
        loop.disposeLater().block(Duration.ofSeconds(5));
    }
}
