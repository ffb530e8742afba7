package io.agentgateway.actiongate.connection;

import io.agentgateway.httpedge.secret.ConfiguredSecretBox;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.PlainSecret;
import io.agentgateway.schemas.secret.SealedSecret;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Opens a connection's secrets (access token, webhook secret) with {@code gateway.secrets.key} for the
 * one use at hand: the view and the read model keep them sealed. A secret that cannot be opened throws
 * {@link UnreadableSecretException}: the caller fails closed.
 */
@Component
public class ConnectionSecrets {
    private final ConfiguredSecretBox secrets;

    public ConnectionSecrets(ConfiguredSecretBox secrets) {
        this.secrets = secrets;
    }

    /**
     * @param what "access token" or "webhook secret", for the message
     * @return the opened secret, or null when none is stored
     * @throws UnreadableSecretException when it cannot be opened (no key, another key, altered)
     */
    public PlainSecret open(UUID workspaceId, Tool tool, SealedSecret sealed, String what) {
        if (sealed == null) {
            return null;
        }
        String where = "the stored " + what + " of " + tool.wire() + " in workspace " + workspaceId;
        SecretBox box = secrets.box().orElseThrow(() -> new UnreadableSecretException(
                where + " cannot be opened: gateway.secrets.key is not set", null));
        try {
            return box.openSecret(sealed);
        } catch (IllegalArgumentException e) {
            // SecretBox's messages say why without quoting the value; keep the cause for the stack trace
            throw new UnreadableSecretException(where + " cannot be opened with gateway.secrets.key", e);
        }
    }
}
