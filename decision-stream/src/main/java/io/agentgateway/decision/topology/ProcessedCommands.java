package io.agentgateway.decision.topology;

import io.agentgateway.decision.outcome.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * The {@code processed-commands} store: the outcome of every command id seen within the retention,
 * filed under the command's acceptedAt. A redelivery carries the same acceptedAt, so it is found by
 * looking around its own timestamp.
 */
final class ProcessedCommands {
    private final WindowStore<String, Outcome> store;
    private final Duration retention;

    ProcessedCommands(WindowStore<String, Outcome> store, Duration retention) {
        this.store = store;
        this.retention = retention;
    }

    Optional<Outcome> find(String commandId, Instant acceptedAt) {
        Instant from = acceptedAt.minus(retention);
        Instant earliest = from.isBefore(Instant.EPOCH) ? Instant.EPOCH : from;
        try (WindowStoreIterator<Outcome> found = store.fetch(commandId, earliest, acceptedAt.plus(retention))) {
            // the latest: a retry of an outcome that reached nobody is remembered after it (DeadlineCheck)
            Outcome latest = null;
            while (found.hasNext()) {
                latest = found.next().value;
            }
            return Optional.ofNullable(latest);
        }
    }

    void remember(String commandId, Instant acceptedAt, Outcome outcome) {
        store.put(commandId, outcome, acceptedAt.toEpochMilli());
    }
}
