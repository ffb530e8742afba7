package io.agentgateway.benchmark.load;

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
 * Sends signed code-host deliveries as the code host does: one payload with the delivery id written into
 * it (the gateway deduplicates by the signed body's digest as well as the delivery id, as the code host's
 * own bodies differ from one event to the next), signed per delivery, so that every call is a new delivery
 * that the gateway verifies, deduplicates, evaluates and records. Reactor Netty on its own event loop, as
 * {@link NettyLoadClient}, so the load generator stays cheap on the shared cores.
 */
public final class WebhookLoadClient implements AutoCloseable {
    private final ConnectionProvider connections;
    private final LoopResources loop;
    private final HttpClient http;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();

    private final javax.crypto.spec.SecretKeySpec key;

    /** @param secret the webhook secret deliveries are signed with (HMAC-SHA256 of the body) */
    public WebhookLoadClient(String baseUrl, String secret, int maxConnections) {
        this.key = new javax.crypto.spec.SecretKeySpec(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8), "HmacSHA256");
        connections = ConnectionProvider.builder("bench-webhooks").maxConnections(maxConnections)
                .pendingAcquireMaxCount(-1).build();
        loop = LoopResources.create("bench-webhooks", 1, true);
        http = HttpClient.create(connections).runOn(loop).baseUrl(baseUrl)
                .responseTimeout(Duration.ofSeconds(30))
                .headers(h -> h.set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                        .set("X-GitHub-Event", "push"));
    }

    /**
     * A call that POSTs a new delivery of {@code template} (a JSON object: the delivery id goes in as its first
     * field) and succeeds on a 200 that is not a duplicate.
     */
    public LoadRunner.Call deliver(String path, byte[] template) {
        return () -> {
            CompletableFuture<Boolean> done = new CompletableFuture<>();
            String delivery = runId + "-" + sequence.incrementAndGet();
            byte[] body = withDeliveryId(template, delivery);
            String signature = "sha256=" + sign(body);
            http.headers(h -> h.set("X-GitHub-Delivery", delivery).set("X-Hub-Signature-256", signature))
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

    private static byte[] withDeliveryId(byte[] template, String delivery) {
        byte[] field = ("{\"delivery\":\"" + delivery + "\",").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] body = new byte[field.length + template.length - 1];
        System.arraycopy(field, 0, body, 0, field.length);
        System.arraycopy(template, 1, body, field.length, template.length - 1);
        return body;
    }

    private String sign(byte[] body) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(key);
            return java.util.HexFormat.of().formatHex(mac.doFinal(body));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public long sent() {
        return sequence.get();
    }

    /** Deliveries answered 200 as new (not duplicate). */
    public long accepted() {
        return accepted.get();
    }

    @Override
    public void close() {
        connections.disposeLater().block(Duration.ofSeconds(5));
        loop.disposeLater().block(Duration.ofSeconds(5));
    }
}
