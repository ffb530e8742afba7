package io.agentgateway.decisionstream.runtime;

/** The decision stream did not reach RUNNING in time, or stopped on the way. */
public class StreamsNotRunningException extends RuntimeException {
    public StreamsNotRunningException(String message) {
        super(message);
    }
}
