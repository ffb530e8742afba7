package io.agentgateway.gatewayclient;

import java.time.Duration;

/** The command is in the log but no reply came in time: fail closed with 504, never an allow. */
public class DecisionTimeoutException extends RuntimeException {
    public DecisionTimeoutException(String commandId, Duration waited) {
        super("no reply to command " + commandId + " within " + waited);
    }
}
