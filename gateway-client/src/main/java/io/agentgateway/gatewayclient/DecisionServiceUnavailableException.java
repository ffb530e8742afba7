package io.agentgateway.gatewayclient;

/** The command could not be handed to the log (broker down, gateway not ready): fail closed with 503. */
public class DecisionServiceUnavailableException extends RuntimeException {
    public DecisionServiceUnavailableException(String message) {
        super(message);
    }

    public DecisionServiceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
