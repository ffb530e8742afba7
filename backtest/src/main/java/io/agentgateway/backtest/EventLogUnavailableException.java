package io.agentgateway.backtest;

/** The event log could not be read: Kafka did not answer, refused the client, or has no events topic. */
public final class EventLogUnavailableException extends RuntimeException {
    public EventLogUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
