package io.agentgateway.backtest;

import io.agentgateway.decisioncore.condition.ConditionLimits;
import io.agentgateway.schemas.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Runs back-tests against the log: reads the workspace's commands (the whole inputs policy conditions read) and
 * events from Kafka and replays them ({@link HistoryReplay}). Each run uses its own short-lived consumer, so runs are independent.
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
    private final EventLogReader commands;
    private final Limits limits;
    private final ConditionLimits conditions;

    /**
     * @param clientConfig  Kafka client settings: bootstrap servers and any security settings
     * @param conditions    the decision stream's condition limits ({@code gateway.decision.conditions.*})
     */
    public Backtester(Map<String, Object> clientConfig, Limits limits, ConditionLimits conditions) {
        this(clientConfig, limits, conditions, Topics.EVENTS.name(), Topics.COMMANDS.name());
    }

    /** With the default condition limits. */
    public Backtester(Map<String, Object> clientConfig, Limits limits) {
        this(clientConfig, limits, ConditionLimits.defaults());
    }

    /** Reading the events of {@code topic} only (tests of the events' reading): no command inputs. */
    Backtester(Map<String, Object> clientConfig, Limits limits, String topic) {
        this(clientConfig, limits, ConditionLimits.defaults(), topic, null);
    }

    Backtester(Map<String, Object> clientConfig, Limits limits, ConditionLimits conditions, String topic, String commandsTopic) {
        this.reader = new EventLogReader(clientConfig, topic, limits.connectTimeout());
        this.commands = commandsTopic == null ? null : new EventLogReader(clientConfig, commandsTopic, limits.connectTimeout());
        this.limits = limits;
        this.conditions = conditions;
    }

    /**
     * @throws EventLogUnavailableException  Kafka did not answer or has no events topic
     * @throws EventLogTimeoutException      the history was not read within the read timeout
     */
    public BacktestReport run(BacktestRequest request) {
        long deadline = System.nanoTime() + limits.readTimeout().toNanos();
        HistoryReplay replay = new HistoryReplay(request, limits.exampleLimit(), conditions);
        // the whole inputs of the evaluations first (conditions read them; the events carry only an excerpt), then
        // the events in log order
        long commandsRead = 0;
        if (commands != null) {
            commandsRead = commands.read(request.workspaceId(), limits.readTimeout(), deadline, ReplayJson::command,
                    replay::acceptCommand).recordsRead();
        }
        LogSpan span = reader.read(request.workspaceId(), limits.readTimeout(), deadline, ReplayJson::envelope, replay::accept);
        return replay.report(span, commandsRead);
    }
}
