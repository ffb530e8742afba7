package io.agentgateway.benchmark;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * Sends signed code-host deliveries as the code host does: one payload, signed once (the HMAC covers
 * the body only), each call with a delivery id of its own so that every call is a new delivery that
 * the gateway verifies, deduplicates, evaluates and records. Reactor Netty on its own event loop, as
 * {@link NettyLoadClient}, so the load generator stays cheap on the shared cores.
 */
final class WebhookLoadClient implements AutoCloseable {
    private final ConnectionProvider connections;
    private final LoopResources loop;
    private final HttpClient http;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();

    WebhookLoadClient(String baseUrl, String signatureHeader, int maxConnections) {
        connections = ConnectionProvider.builder("bench-webhooks").maxConnections(maxConnections)
                .pendingAcquireMaxCount(-1).build();
        loop = LoopResources.create("bench-webhooks", 1, true);
        http = HttpClient.create(connections).runOn(loop).baseUrl(baseUrl)
                .responseTimeout(Duration.ofSeconds(30))
                .headers(h -> h.set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                        .set("X-Hub-Signature-256", signatureHeader)
                        .set("X-GitHub-Event", "push"));
    }

    /** A call that POSTs a new delivery of {@code body} and succeeds on a 200 that is not a duplicate. */
    LoadRunner.Call deliver(String path, byte[] body) {
        return () -> {
            CompletableFuture<Boolean> done = new CompletableFuture<>();
            String delivery = runId + "-" + sequence.incrementAndGet();
            http.headers(h -> h.set("X-GitHub-Delivery", delivery))
                    .post().uri(path)
                    .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)))
                    .responseSingle((response, content) -> content.asString().defaultIfEmpty("")
                            .map(text -> response.status().code() == 200 && text.contains("\"duplicate\":false")))
                    .doOnNext(ok -> {
                        if (ok) {
                            accepted.incrementAndGet();
                        }
                    })
                    .subscribe(done::complete, done::completeExceptionally);
            return done;
        };
    }

    long sent() {
        return sequence.get();
    }

    /** Deliveries answered 200 as new (not duplicate). */
    long accepted() {
        return accepted.get();
    }

    @Override
    public void close() {
        connections.disposeLater().block(Duration.ofSeconds(5));
        loop.disposeLater().block(Duration.ofSeconds(5));
    }
}
