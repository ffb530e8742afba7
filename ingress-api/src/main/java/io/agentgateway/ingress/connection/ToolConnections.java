package io.agentgateway.ingress.connection;

import io.agentgateway.ingress.secret.ConfiguredSecretBox;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.PlainSecret;
import io.agentgateway.schemas.secret.SealedSecret;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * The read side of tool connections for the components that act on a tool: the proxy (access token
 * and base URL), the MCP gate (server URL, auth type, transport, token) and the webhook verifier
 * (webhook secret). Loads the workspace's connection from the read model and opens its secrets with
 * {@code gateway.secrets.key}. Blocking (JDBC): call off the event loop.
 */
@Component
public class ToolConnections {
    private final ToolConnectionRepository repository;
    private final ConfiguredSecretBox secrets;

    public ToolConnections(ToolConnectionRepository repository, ConfiguredSecretBox secrets) {
        this.repository = repository;
        this.secrets = secrets;
    }

    /**
     * @return the workspace's connection to the tool with its secrets opened, or empty when there is none
     * @throws UnreadableSecretException when a stored secret cannot be opened (fail closed)
     */
    public Optional<OpenedToolConnection> find(UUID workspaceId, Tool tool) {
        return repository.find(workspaceId, tool).map(stored -> open(workspaceId, stored));
    }

    private OpenedToolConnection open(UUID workspaceId, StoredToolConnection stored) {
        return new OpenedToolConnection(stored.tool(), stored.config(),
                open(workspaceId, stored.tool(), stored.accessToken(), "access token"),
                open(workspaceId, stored.tool(), stored.webhookSecret(), "webhook secret"),
                stored.mcpServerUrl(), stored.mcpAuthType(), stored.mcpTransport(), stored.baseUrl(), stored.paused(),
                stored.version());
    }

    private PlainSecret open(UUID workspaceId, Tool tool, SealedSecret sealed, String what) {
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
