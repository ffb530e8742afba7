package io.agentgateway.projector.readmodel;

/**
 * An event that parsed but cannot be projected (a required field is missing, an id is not a UUID).
 * The message names the problem, never a value of the event: it is logged.
 */
public class InvalidEventException extends RuntimeException {
    public InvalidEventException(String message) {
        super(message);
    }

    public InvalidEventException(String message, Throwable cause) {
        super(message, cause);
    }
}
