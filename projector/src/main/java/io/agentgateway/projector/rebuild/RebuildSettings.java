package io.agentgateway.projector.rebuild;

import java.time.Duration;
import java.util.Objects;

/**
 * Where a rebuild reads and writes, and how.
 *
 * @param bootstrapServers     Kafka holding {@code gateway.events.v1}
 * @param jdbcUrl              the read-model database (the one the live projector writes)
 * @param eventsPerTransaction events written per transaction while replaying: large, because a fresh table
 *                             nobody reads needs no short transactions, and every commit costs a flush
 * @param switchWithinEvents   how close behind the end of the log the replay must be before it takes the
 *                             switch lock: what is left is applied while the live projector waits
 * @param progressInterval     how often progress is reported
 * @param timeout              how long to wait for Kafka to answer, and for the switch lock (live
 *                             projector transactions and readers of the old tables to finish)
 */
public record RebuildSettings(
        String bootstrapServers,
        String jdbcUrl,
        String dbUser,
        String dbPassword,
        int eventsPerTransaction,
        long switchWithinEvents,
        Duration progressInterval,
        Duration timeout) {

    public static final int DEFAULT_EVENTS_PER_TRANSACTION = 10_000;
    public static final long DEFAULT_SWITCH_WITHIN_EVENTS = 5_000;
    public static final Duration DEFAULT_PROGRESS_INTERVAL = Duration.ofSeconds(1);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    public RebuildSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (eventsPerTransaction < 1 || switchWithinEvents < 0) {
            throw new IllegalArgumentException("eventsPerTransaction must be positive and switchWithinEvents not negative");
        }
        if (progressInterval.isNegative() || progressInterval.isZero() || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("progressInterval and timeout must be positive");
        }
    }

    /** The defaults for everything but the addresses. */
    public static RebuildSettings of(String bootstrapServers, String jdbcUrl, String dbUser, String dbPassword) {
        return new RebuildSettings(bootstrapServers, jdbcUrl, dbUser, dbPassword, DEFAULT_EVENTS_PER_TRANSACTION,
                DEFAULT_SWITCH_WITHIN_EVENTS, DEFAULT_PROGRESS_INTERVAL, DEFAULT_TIMEOUT);
    }

    public RebuildSettings withTimeout(Duration value) {
        return new RebuildSettings(bootstrapServers, jdbcUrl, dbUser, dbPassword, eventsPerTransaction,
                switchWithinEvents, progressInterval, value);
    }

    public RebuildSettings withProgressInterval(Duration value) {
        return new RebuildSettings(bootstrapServers, jdbcUrl, dbUser, dbPassword, eventsPerTransaction,
                switchWithinEvents, value, timeout);
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "RebuildSettings[bootstrapServers=" + bootstrapServers + ", jdbcUrl=" + jdbcUrl + ", dbUser=" + dbUser
                + ", eventsPerTransaction=" + eventsPerTransaction + ", switchWithinEvents=" + switchWithinEvents + "]";
    }
}
