package io.agentgateway.classification;

/**
 * A call that cannot be classified because it is not well formed (e.g. a body that is not one GraphQL
 * request). The message is written for the caller: the entry point answers 400 with it. No stack trace is
 * captured: this is an expected outcome, not a fault.
 */
public final class MalformedCallException extends RuntimeException {
    public MalformedCallException(String message) {
        super(message, null, false, false);
    }
}
