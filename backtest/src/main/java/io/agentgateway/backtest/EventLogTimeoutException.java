package io.agentgateway.backtest;

import java.time.Duration;

/** Reading the workspace's history took longer than the back-test may run. */
public final class EventLogTimeoutException extends RuntimeException {
    public EventLogTimeoutException(Duration limit, long offset, long endOffset) {
        super("the event log was not read to its end within " + limit + " (at offset " + offset + " of " + endOffset + ")");
    }
}
