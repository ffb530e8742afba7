package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.ReceiveWebhook;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * The {@code webhook-deliveries} store: the (workspace, source, delivery id) and the (workspace, source,
 * digest of the signed body) of every webhook delivery recorded within {@link #RETENTION}, filed under its
 * acceptedAt. A delivery is a duplicate when either was recorded: a captured delivery sent again under a
 * new delivery id is not evaluated (or stored) again. A persistent store with a
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
        return keys(envelope).stream().filter(key -> seen(key, envelope.acceptedAt())).findFirst()
                .map(key -> Outcome.rejected(envelope.workspaceId(), ReplyStatus.CONFLICT, DUPLICATE));
    }

    /** Remembers a delivery once it has been recorded (an invalid one was not, and may come again fixed). */
    void remember(CommandEnvelope envelope, Outcome outcome) {
        if (outcome.status() == ReplyStatus.OK) {
            keys(envelope).forEach(key -> store.put(key, envelope.acceptedAt().toEpochMilli(),
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

    /** The delivery id's key and (when the command carries it) the body digest's; none for other commands. */
    private static List<String> keys(CommandEnvelope envelope) {
        if (!(envelope.command() instanceof ReceiveWebhook webhook) || webhook.tool() == null
                || webhook.deliveryId() == null || webhook.deliveryId().isBlank()) {
            return List.of();
        }
        // newline cannot occur in a workspace id or a tool's wire name, so the parts cannot run into each other;
        // a digest key starts with "sha256:" after a second newline, which a delivery id (a header value) cannot hold
        String prefix = envelope.workspaceId() + "\n" + webhook.tool().wire() + "\n";
        if (webhook.bodyDigest() == null || webhook.bodyDigest().isBlank()) {
            return List.of(prefix + webhook.deliveryId());
        }
        return List.of(prefix + webhook.deliveryId(), prefix + "\n" + webhook.bodyDigest());
    }
}
