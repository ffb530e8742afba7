package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.schemas.command.CommandEnvelope;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * The {@code processed-commands} store: what a redelivery of every command id seen within the retention
 * needs ({@link StoredOutcome}), filed under the command's acceptedAt. A redelivery carries the same
 * acceptedAt, so it is found by looking around its own timestamp, and its outcome is rebuilt from the
 * stored part and the redelivered command.
 */
final class ProcessedCommands {
    private final WindowStore<String, StoredOutcome> store;
    private final Duration retention;
    private final int excerptBytes;

    ProcessedCommands(WindowStore<String, StoredOutcome> store, Duration retention, int excerptBytes) {
        this.store = store;
        this.retention = retention;
        this.excerptBytes = excerptBytes;
    }

    /** What the command id got before ({@link StoredOutcome#restore} rebuilds it for {@code envelope}); empty for a command not seen. */
    Optional<StoredOutcome> find(CommandEnvelope envelope) {
        return latest(envelope).map(stored -> stored.value);
    }

    /**
     * Whether the outcome {@link #find} returns was filed under {@code envelope}'s own acceptedAt: {@code envelope}
     * is a redelivery of the very attempt decided (or of a retry decided afresh), not another attempt with its id.
     */
    boolean decidedThisAttempt(CommandEnvelope envelope) {
        return latest(envelope).map(stored -> stored.key == envelope.acceptedAt().toEpochMilli()).orElse(false);
    }

    /** The latest entry of the command id around {@code envelope}'s acceptedAt, with the time it is filed under. */
    private Optional<KeyValue<Long, StoredOutcome>> latest(CommandEnvelope envelope) {
        Instant acceptedAt = envelope.acceptedAt();
        Instant from = acceptedAt.minus(retention);
        Instant earliest = from.isBefore(Instant.EPOCH) ? Instant.EPOCH : from;
        try (WindowStoreIterator<StoredOutcome> found = store.fetch(envelope.commandId(), earliest, acceptedAt.plus(retention))) {
            // the latest: a retry of an outcome that reached nobody is remembered after it (DeadlineCheck)
            KeyValue<Long, StoredOutcome> latest = null;
            while (found.hasNext()) {
                latest = found.next();
            }
            return Optional.ofNullable(latest);
        }
    }

    /**
     * What was decided for one attempt of {@code commandId}, the one accepted at {@code acceptedAt} (the original
     * command's, or a retry's that was decided afresh); empty when that attempt was answered from an earlier one,
     * or never seen.
     */
    Optional<StoredOutcome> attempt(String commandId, Instant acceptedAt) {
        try (WindowStoreIterator<StoredOutcome> found = store.fetch(commandId, acceptedAt, acceptedAt)) {
            return found.hasNext() ? Optional.of(found.next().value) : Optional.empty();
        }
    }

    /**
     * Replaces the outcome filed for that attempt with its undelivered form ({@link StoredOutcome#undelivered()}),
     * and, for a retry decided afresh, the entry under the id it was decided as: a redelivery then gets the undelivered
     * form, and a retry of the command id is decided afresh (see {@link DeadlineCheck}).
     */
    void markUndelivered(String commandId, Instant acceptedAt) {
        attempt(commandId, acceptedAt).ifPresent(stored -> {
            store.put(commandId, stored.undelivered(), acceptedAt.toEpochMilli());
            if (stored.decidedCommandId() != null) {
                attempt(stored.decidedCommandId(), stored.decidedAt()).ifPresent(decided ->
                        store.put(stored.decidedCommandId(), decided.undelivered(), stored.decidedAt().toEpochMilli()));
            }
        });
    }

    /** @param evidenceLog the workspace's Merkle log as {@code outcome}'s seals left it, or null (nothing sealed) */
    void remember(CommandEnvelope envelope, Outcome outcome, byte[] evidenceLog) {
        store.put(envelope.commandId(), StoredOutcome.of(envelope, outcome, excerptBytes, evidenceLog),
                envelope.acceptedAt().toEpochMilli());
    }

    /**
     * Files the outcome of {@code decided} (a retry decided under its derived id) under the id the caller
     * retried, {@code retried}: later retries of that id get it, with the events' ids as first emitted.
     */
    void rememberRetry(CommandEnvelope retried, CommandEnvelope decided, Outcome outcome, byte[] evidenceLog) {
        store.put(retried.commandId(), StoredOutcome.of(decided, outcome, excerptBytes, evidenceLog).decidedAs(decided),
                retried.acceptedAt().toEpochMilli());
    }
}
