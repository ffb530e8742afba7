package io.agentgateway.webhooks;

import io.agentgateway.classification.WebhookWatch;
import io.agentgateway.actiongate.connection.ConnectionSecrets;
import io.agentgateway.actiongate.connection.UnreadableSecretException;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.secret.PlainSecret;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * Whether a delivery verifies against one workspace's copy of its connection: the connection watches
 * the payload's repository, organization or team ({@link WebhookWatch}) and the HMAC of the raw bytes
 * under its webhook secret is the signature ({@link HmacSignature}, timing-safe). Several workspaces can
 * watch one organization, each with its own secret; each is asked on its own. A secret that cannot be
 * opened verifies nothing: fail closed.
 */
@Component
class WebhookVerifier {
    private static final Logger log = LoggerFactory.getLogger(WebhookVerifier.class);

    private final ConnectionSecrets secrets;

    WebhookVerifier(ConnectionSecrets secrets) {
        this.secrets = secrets;
    }

    boolean verifies(UUID workspaceId, Tool tool, ToolConnection connection, ObjectNode payload, byte[] body, byte[] signature) {
        if (connection == null || connection.webhookSecret() == null
                || !WebhookWatch.watches(tool, connection.config(), payload)) {
            return false;
        }
        PlainSecret secret;
        try {
            secret = secrets.open(workspaceId, tool, connection.webhookSecret(), "webhook secret");
        } catch (UnreadableSecretException e) {
            log.warn("webhook: {}; refusing the delivery for that workspace", e.getMessage());
            return false;
        }
        return HmacSignature.verifies(secret, body, signature);
    }
}
