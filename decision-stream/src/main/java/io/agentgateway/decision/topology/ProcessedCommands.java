package io.agentgateway.decision.topology;

import io.agentgateway.decision.outcome.Outcome;
import io.agentgateway.schemas.command.CommandEnvelope;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
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

    /** The outcome the command id got before, rebuilt for {@code envelope}; empty for a command not seen. */
    Optional<Outcome> find(CommandEnvelope envelope) {
        Instant acceptedAt = envelope.acceptedAt();
        Instant from = acceptedAt.minus(retention);
        Instant earliest = from.isBefore(Instant.EPOCH) ? Instant.EPOCH : from;
        try (WindowStoreIterator<StoredOutcome> found = store.fetch(envelope.commandId(), earliest, acceptedAt.plus(retention))) {
            // the latest: a retry of an outcome that reached nobody is remembered after it (DeadlineCheck)
            StoredOutcome latest = null;
            while (found.hasNext()) {
                latest = found.next().value;
            }
            return Optional.ofNullable(latest).map(stored -> stored.restore(envelope));
        }
    }

    void remember(CommandEnvelope envelope, Outcome outcome) {
        store.put(envelope.commandId(), StoredOutcome.of(envelope, outcome, excerptBytes), envelope.acceptedAt().toEpochMilli());
    }

    /**
     * Files the outcome of {@code decided} (a retry decided under its derived id) under the id the caller
     * retried, {@code retried}: later retries of that id get it, with the events' ids as first emitted.
     */
    void rememberRetry(CommandEnvelope retried, CommandEnvelope decided, Outcome outcome) {
        store.put(retried.commandId(), StoredOutcome.of(decided, outcome, excerptBytes).decidedAs(decided),
                retried.acceptedAt().toEpochMilli());
    }
}
