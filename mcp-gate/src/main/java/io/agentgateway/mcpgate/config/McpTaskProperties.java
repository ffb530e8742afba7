package io.agentgateway.mcpgate.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.mcp.tasks.*}: MCP tasks (a held {@code tools/call} answered as a task, see {@code task.McpTasks}).
 *
 * @param pollInterval        the {@code pollInterval} / {@code pollIntervalMs} tasks suggest to their clients
 * @param resultWait          the longest a 2025-11-25 {@code tasks/result} waits for its task to end (then -32603
 *                            saying the task is still working; the client asks again or polls {@code tasks/get})
 * @param retention           how long a task's result is kept after its call could last have run: a held call's task
 *                            lives for its approval's expiry, as long again for the approved call to run, and this;
 *                            the result of an allowed call asked for as a task is kept this long
 * @param readModelWait       how long {@code tasks/get} waits for the read model to show the end of an approval the
 *                            decision stream no longer holds (it is being projected) before answering what it shows
 * @param watch               how this replica learns that a watched task changed (a waiting {@code tasks/result}, a
 *                            task whose status a client follows): {@code events} (the default) from the decision
 *                            stream's events as they are written, then read from the read model once it shows them;
 *                            {@code poll}, for an ingress that cannot read {@code gateway.events.v1}, by reading the
 *                            read model every {@code watch-interval}
 * @param watchInterval       with {@code watch=poll}: how often this replica reads the approvals its waiting
 *                            {@code tasks/result} requests and its clients' followed tasks are about (one query for all)
 * @param maxWatched          tasks this replica follows at once for waits and status notifications (beyond it a
 *                            {@code tasks/result} that would wait is refused at once; notifications are not sent)
 * @param maxWatchedPerKey    the same for the tasks of one API key
 * @param listPageSize        tasks per {@code tasks/list} page
 * @param storedResultMaxBytes the largest result of an approved {@code tools/call} (compact JSON) kept as its execution
 *                            result (the command that records it must fit a Kafka record): a larger one is recorded
 *                            as an error result saying so. An allowed call's result asked for as a task is kept in
 *                            PostgreSQL up to this size; a larger one only in the memory of the replica that ran it
 *                            (at most 64 MiB of such results per replica)
 */
@ConfigurationProperties("gateway.mcp.tasks")
public record McpTaskProperties(
        @DefaultValue("PT5S") Duration pollInterval,
        @DefaultValue("PT50S") Duration resultWait,
        @DefaultValue("PT1H") Duration retention,
        @DefaultValue("PT5S") Duration readModelWait,
        @DefaultValue("events") Watch watch,
        @DefaultValue("PT0.5S") Duration watchInterval,
        @DefaultValue("2000") int maxWatched,
        @DefaultValue("50") int maxWatchedPerKey,
        @DefaultValue("50") int listPageSize,
        @DefaultValue("524288") int storedResultMaxBytes) {

    /** How a replica learns that a watched task changed. */
    public enum Watch {
        /** Woken by the decision stream's events ({@code gateway.events.v1}, read by every replica). */
        EVENTS,
        /** Every {@code watch-interval}, one read of the read model for all watched tasks. */
        POLL
    }

    public McpTaskProperties {
        watch = watch == null ? Watch.EVENTS : watch;
        for (Duration positive : new Duration[] {pollInterval, resultWait, retention, watchInterval}) {
            if (positive.isZero() || positive.isNegative()) {
                throw new IllegalArgumentException(
                        "gateway.mcp.tasks.poll-interval, result-wait, retention and watch-interval must be positive");
            }
        }
        if (readModelWait.isNegative()) {
            throw new IllegalArgumentException("gateway.mcp.tasks.read-model-wait must not be negative");
        }
        if (maxWatched < 1 || maxWatchedPerKey < 1 || listPageSize < 1 || listPageSize > 500) {
            throw new IllegalArgumentException("gateway.mcp.tasks.max-watched, max-watched-per-key must be positive and "
                    + "list-page-size between 1 and 500");
        }
        if (storedResultMaxBytes < 4096 || storedResultMaxBytes > 900_000) {
            throw new IllegalArgumentException("gateway.mcp.tasks.stored-result-max-bytes must be between 4096 and 900000 "
                    + "(the execution result travels in one Kafka record of at most 1 MB)");
        }
    }
}
