package io.agentgateway.actiongate.connection;

/**
 * A stored secret that cannot be opened: no {@code gateway.secrets.key}, or another key than the one
 * it was sealed with, or an altered value. The caller must fail closed (no upstream call, no webhook
 * accepted). The message names the workspace, the tool and which secret, never a value.
 */
public class UnreadableSecretException extends IllegalStateException {

    UnreadableSecretException(String message, Throwable cause) {
        super(message, cause);
    }
}
