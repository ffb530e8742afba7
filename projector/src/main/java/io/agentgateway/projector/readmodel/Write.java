package io.agentgateway.projector.readmodel;

import org.springframework.jdbc.core.namedparam.SqlParameterSource;

/**
 * One execution of a statement with its arguments (typed, so no null needs a metadata round trip).
 *
 * @param coalescing null for a write that runs as planned; else the write is one of a series that only moves a value
 *                   forward ({@link Coalescing}), of which a batch runs the latest alone
 */
public record Write(SqlStatement statement, SqlParameterSource params, Coalescing coalescing) {

    public Write(SqlStatement statement, SqlParameterSource params) {
        this(statement, params, null);
    }

    /**
     * A write whose effect a later one of the same {@code key} includes: its statement only moves a value forward, to
     * {@code position} (an API key's last use, to the minute). Of the writes of one key in a batch only the one at the
     * highest position runs, and none runs again for a position the writer already committed.
     */
    public record Coalescing(String key, long position) {}
}
