package io.agentgateway.webhooks;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.agentgateway.classification.PayloadExcerpt;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * What is kept of deliveries that match no workspace (spec 6 rule 3: recorded with processed = false). Anyone
 * can send them (no secret is needed to name an unwatched repository), so what they may cost is bounded:
 * each is recorded as an excerpt ({@code gateway.webhooks.unmatched-excerpt-bytes} of its compact payload, the
 * texts taken from it at most {@value #MAX_TEXT_CHARS} characters) instead of whole, and only within a rate
 * per source address and a global rate of this instance (token buckets); the rest are answered as always and
 * only counted. Deliveries are deduplicated by body digest as well as delivery id in the decision stream.
 */
@Component
class UnmatchedDeliveries {
    static final int MAX_TEXT_CHARS = 256;
    private static final int MAX_ADDRESSES = 100_000;

    private final WebhookProperties properties;
    private final Bucket global;
    private final Cache<String, Bucket> perAddress = Caffeine.newBuilder().maximumSize(MAX_ADDRESSES)
            .expireAfterAccess(Duration.ofMinutes(10)).build();

    UnmatchedDeliveries(WebhookProperties properties) {
        this.properties = properties;
        this.global = properties.unmatchedGlobalRate() > 0
                ? bucket(properties.unmatchedGlobalRate(), properties.unmatchedGlobalBurst()) : null;
    }

    /** The command to record for a delivery from {@code sourceAddress}, or empty when over a rate. */
    Optional<ReceiveWebhook> toRecord(ReceiveWebhook command, String sourceAddress) {
        if (properties.unmatchedRate() > 0) {
            Bucket mine = perAddress.get(sourceAddress, a -> bucket(properties.unmatchedRate(), properties.unmatchedBurst()));
            if (!mine.tryConsume(1)) {
                return Optional.empty();
            }
        }
        if (global != null && !global.tryConsume(1)) {
            return Optional.empty();
        }
        return Optional.of(excerpted(command));
    }

    private ReceiveWebhook excerpted(ReceiveWebhook command) {
        JsonNode payload = command.payload();
        byte[] utf8 = payload == null ? new byte[0] : GatewayJson.MAPPER.writeValueAsString(payload).getBytes(StandardCharsets.UTF_8);
        int cut = PayloadExcerpt.cutAt(utf8, properties.unmatchedExcerptBytes());
        return command.asExcerpt(new String(utf8, 0, cut, StandardCharsets.UTF_8), utf8.length, MAX_TEXT_CHARS);
    }

    private static Bucket bucket(int rate, int burst) {
        return Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(burst).refillGreedy(rate, Duration.ofSeconds(1)).build())
                .build();
    }
}
