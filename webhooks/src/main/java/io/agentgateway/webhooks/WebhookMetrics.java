package io.agentgateway.webhooks;

import io.agentgateway.schemas.Tool;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.stereotype.Component;

/**
 * Counters {@code gateway.webhooks.rejected} (tags {@code source}, {@code reason}: too_large,
 * unsupported_media_type, missing_signature, sha1_signature, malformed_signature, invalid_signature,
 * unmatched, missing_header, malformed_body, timestamp) and {@code gateway.webhooks.accepted}
 * (tags {@code source}, {@code outcome}: recorded, duplicate), and {@code gateway.webhooks.unmatched.not-recorded}
 * (unmatched deliveries over the recording rate limits). A rejection writes nothing else: a
 * flood of forged deliveries must not be able to fill a table.
 */
@Component
class WebhookMetrics {
    static final String REJECTED = "gateway.webhooks.rejected";
    static final String ACCEPTED = "gateway.webhooks.accepted";
    static final String UNMATCHED_DROPPED = "gateway.webhooks.unmatched.not-recorded";

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Counter> counters = new ConcurrentHashMap<>();

    WebhookMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void rejected(Tool source, String reason) {
        count(REJECTED, source, "reason", reason);
    }

    /** An unmatched delivery over the rate limits: answered as always, not recorded. */
    void unmatchedNotRecorded(Tool source) {
        count(UNMATCHED_DROPPED, source, "reason", "rate_limited");
    }

    void accepted(Tool source, boolean duplicate) {
        count(ACCEPTED, source, "outcome", duplicate ? "duplicate" : "recorded");
    }

    private void count(String name, Tool source, String tag, String value) {
        counters.computeIfAbsent(name + "|" + source.wire() + "|" + value, key -> Counter.builder(name)
                        .tag("source", source.wire())
                        .tag(tag, value)
                        .register(registry))
                .increment();
    }
}
