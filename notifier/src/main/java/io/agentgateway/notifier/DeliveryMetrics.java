package io.agentgateway.notifier;

import io.agentgateway.notifier.channel.Channel;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counters of the notifier: {@code gateway.notifier.deliveries} tagged with {@code channel}
 * ({@code email}, {@code chat}) and {@code outcome} ({@code sent}, {@code failed}, {@code unknown},
 * {@code dead_lettered}), and {@code gateway.notifier.records.skipped} for records that are not a
 * readable notification.
 */
public class DeliveryMetrics {
    public static final String DELIVERIES = "gateway.notifier.deliveries";
    public static final String SKIPPED_RECORDS = "gateway.notifier.records.skipped";
    public static final String APPROVAL_DIGESTS = "gateway.notifier.approval.digests";

    private final MeterRegistry registry;

    public DeliveryMetrics(MeterRegistry registry) {
        this.registry = registry;
        // dead letters from the start, at zero: an alert on their increase sees the first one
        for (Channel channel : Channel.values()) {
            Counter.builder(DELIVERIES).description("notification delivery attempts by channel and outcome")
                    .tag("channel", channel.wireName()).tag("outcome", "dead_lettered").register(registry);
        }
    }

    public void sent(Channel channel) {
        delivery(channel, "sent");
    }

    /** One attempt certainly failed; it may still be retried. */
    public void failed(Channel channel) {
        delivery(channel, "failed");
    }

    /** An attempt may or may not have delivered; it is not repeated. */
    public void unknown(Channel channel) {
        delivery(channel, "unknown");
    }

    public void deadLettered(Channel channel) {
        delivery(channel, "dead_lettered");
    }

    /** An approval request over its workspace's limit: counted for the window's digest instead of sent. */
    public void approvalHeldForDigest() {
        Counter.builder(APPROVAL_DIGESTS).description("approval requests summed up in a digest, and digests sent")
                .tag("outcome", "held").register(registry).increment();
    }

    public void approvalDigestSent() {
        Counter.builder(APPROVAL_DIGESTS).description("approval requests summed up in a digest, and digests sent")
                .tag("outcome", "digest_sent").register(registry).increment();
    }

    public void skippedUnreadable() {
        Counter.builder(SKIPPED_RECORDS)
                .description("records on the notifications topic that are not a readable notification")
                .tag("reason", "unreadable")
                .register(registry)
                .increment();
    }

    private void delivery(Channel channel, String outcome) {
        Counter.builder(DELIVERIES)
                .description("notification delivery attempts by channel and outcome")
                .tag("channel", channel.wireName())
                .tag("outcome", outcome)
                .register(registry)
                .increment();
    }
}
