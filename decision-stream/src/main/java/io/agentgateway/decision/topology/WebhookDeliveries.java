package io.agentgateway.decision.topology;

import io.agentgateway.decision.outcome.Outcome;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.ReceiveWebhook;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * The {@code webhook-deliveries} store: the (workspace, source, delivery id) of every webhook
 * delivery recorded within {@link #RETENTION}, filed under its acceptedAt. A persistent store with a
 * changelog, so a delivery is known as seen after a restart and on every replica. It is bounded by
 * time: segments older than the retention (in acceptedAt time) are dropped whole; a delivery replayed
 * later than that would be recorded again.
 *
 * <p>Seven days covers the code host's manual redelivery window (deliveries of the past three days)
 * and the issue tracker's automatic retries (hours), with margin.
 */
final class WebhookDeliveries {
    static final Duration RETENTION = Duration.ofDays(7);
    /** The reply to a delivery seen before: CONFLICT with this text, which the ingress answers as {@code duplicate: true}. */
    static final String DUPLICATE = "duplicate delivery";

    private final WindowStore<String, Long> store;

    WebhookDeliveries(WindowStore<String, Long> store) {
        this.store = store;
    }

    /** The duplicate answer when {@code envelope} is a webhook delivery recorded before, else empty. */
    Optional<Outcome> duplicateOf(CommandEnvelope envelope) {
        return key(envelope).filter(key -> seen(key, envelope.acceptedAt()))
                .map(key -> Outcome.rejected(envelope.workspaceId(), ReplyStatus.CONFLICT, DUPLICATE));
    }

    /** Remembers a delivery once it has been recorded (an invalid one was not, and may come again fixed). */
    void remember(CommandEnvelope envelope, Outcome outcome) {
        if (outcome.status() == ReplyStatus.OK) {
            key(envelope).ifPresent(key -> store.put(key, envelope.acceptedAt().toEpochMilli(),
                    envelope.acceptedAt().toEpochMilli()));
        }
    }

    private boolean seen(String key, Instant acceptedAt) {
        Instant from = acceptedAt.minus(RETENTION);
        Instant earliest = from.isBefore(Instant.EPOCH) ? Instant.EPOCH : from;
        // forward too: replicas' clocks differ, an earlier delivery may carry a slightly later acceptedAt
        try (WindowStoreIterator<Long> found = store.fetch(key, earliest, acceptedAt.plus(RETENTION))) {
            return found.hasNext();
        }
    }

    private static Optional<String> key(CommandEnvelope envelope) {
        if (!(envelope.command() instanceof ReceiveWebhook webhook) || webhook.tool() == null
                || webhook.deliveryId() == null || webhook.deliveryId().isBlank()) {
            return Optional.empty();
        }
        // newline cannot occur in a workspace id or a tool's wire name, so the parts cannot run into each other
        return Optional.of(envelope.workspaceId() + "\n" + webhook.tool().wire() + "\n" + webhook.deliveryId());
    }
}
