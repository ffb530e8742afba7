package io.agentgateway.backtest;

import io.agentgateway.schemas.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Runs back-tests against the event log: reads the workspace's history from Kafka and replays it
 * ({@link HistoryReplay}). Each run uses its own short-lived consumer, so runs are independent.
 */
public final class Backtester {

    /**
     * @param connectTimeout  how long Kafka may take to answer a metadata or offsets request before the
     *                        log counts as unavailable
     * @param readTimeout     how long the whole read may take
     * @param exampleLimit    audit ids kept per group of changes
     */
    public record Limits(Duration connectTimeout, Duration readTimeout, int exampleLimit) {
        public Limits {
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            Objects.requireNonNull(readTimeout, "readTimeout");
            if (connectTimeout.isNegative() || connectTimeout.isZero() || readTimeout.isNegative() || readTimeout.isZero()) {
                throw new IllegalArgumentException("back-test timeouts must be positive");
            }
            if (exampleLimit < 0) {
                throw new IllegalArgumentException("exampleLimit must be >= 0");
            }
        }
    }

    private final EventLogReader reader;
    private final Limits limits;

    /** @param clientConfig  Kafka client settings: bootstrap servers and any security settings */
    public Backtester(Map<String, Object> clientConfig, Limits limits) {
        this(clientConfig, limits, Topics.EVENTS.name());
    }

    Backtester(Map<String, Object> clientConfig, Limits limits, String topic) {
        this.reader = new EventLogReader(clientConfig, topic, limits.connectTimeout());
        this.limits = limits;
    }

    /**
     * @throws EventLogUnavailableException  Kafka did not answer or has no events topic
     * @throws EventLogTimeoutException      the history was not read within the read timeout
     */
    public BacktestReport run(BacktestRequest request) {
        HistoryReplay replay = new HistoryReplay(request, limits.exampleLimit());
        LogSpan span = reader.read(request.workspaceId(), limits.readTimeout(), replay::accept);
        return replay.report(span);
    }
}
