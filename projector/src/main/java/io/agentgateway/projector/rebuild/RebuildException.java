package io.agentgateway.projector.rebuild;

/**
 * A rebuild that did not happen, with a message an operator can act on (Kafka unreachable, the
 * database refused the login, another rebuild is running...). The live read models are unchanged.
 */
public class RebuildException extends RuntimeException {
    public RebuildException(String message) {
        super(message);
    }

    public RebuildException(String message, Throwable cause) {
        super(message, cause);
    }
}
