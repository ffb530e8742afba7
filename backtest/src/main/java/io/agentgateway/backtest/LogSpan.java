package io.agentgateway.backtest;

/**
 * What a reader covered of the log, for the report.
 *
 * @param undecodable  records of the workspace that did not parse as an event envelope (skipped)
 */
public record LogSpan(String topic, int partition, long startOffset, long endOffset, long recordsRead, long undecodable) {

    /** For a replay fed from memory rather than read from Kafka. */
    public static LogSpan inMemory(long events) {
        return new LogSpan(null, -1, 0, events, events, 0);
    }
}
