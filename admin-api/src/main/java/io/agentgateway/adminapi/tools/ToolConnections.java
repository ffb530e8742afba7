package io.agentgateway.adminapi.tools;

import io.agentgateway.adminapi.shared.AdminCommands;
import io.agentgateway.adminapi.shared.AdminRefusals;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.adminapi.shared.SecretSealer;
import io.agentgateway.classification.ConnectionField;
import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.actiongate.connection.StoredToolConnection;
import io.agentgateway.actiongate.connection.ToolConnectionRepository;
import io.agentgateway.actiongate.connection.WebhookRouting;
import io.agentgateway.httpedge.egress.EgressUrls;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.WebhookSetup;
import io.agentgateway.httpedge.web.WireNames;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.secret.PlainSecret;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * A workspace's tool connections, for every client of them (the admin API, the console): every tool as the settings
 * show it (connected or not, never a secret), a connection set with the API's body ({@link ToolConnectionBodies},
 * field-addressed 400s; URLs through the egress policy; secrets sealed before they enter a command), deleted, and a
 * webhook secret rotated (generated here and handed back this once, after the stream stored it). Every change is a
 * command through the decision stream, which judges what a valid connection is and names the field it refuses.
 */
@Service
public class ToolConnections {
    static final String TOOL_MESSAGE = "tool must be one of: " + WireNames.of(Tool.values());
    static final String NOT_CONNECTED = "Tool connection not found";
    static final String WEBHOOK_TOOLS_ONLY = "webhook secrets are only for the "
            + ToolProfiles.listed(ToolProfile::sendsWebhooks, "and") + " tools (the tools that send webhooks)";
    /** The fields a connection body names: where a refusal of the decision stream is shown. */
    static final List<String> FIELDS = Stream.concat(Arrays.stream(ConnectionField.values()).map(ConnectionField::fieldName),
            Stream.of("base_url", "config.access_token", "webhook_secret", "config.rules", "tool")).toList();

    /** A webhook secret just generated: {@code secret} is its only copy, shown once with what to enter upstream. */
    public record RotatedSecret(String tool, String payloadUrl, String contentType, String secret) {
        @Override
        public String toString() {
            return "RotatedSecret[tool=" + tool + ", payloadUrl=" + payloadUrl + ", contentType=" + contentType + ", secret=redacted]";
        }
    }

    private final AdminCommands commands;
    private final ToolConnectionRepository connections;
    private final SecretSealer sealer;
    private final WebhookRouting webhooks;
    private final EgressUrls egress;

    ToolConnections(AdminCommands commands, ToolConnectionRepository connections, SecretSealer sealer,
                    WebhookRouting webhooks, EgressUrls egress) {
        this.commands = commands;
        this.connections = connections;
        this.sealer = sealer;
        this.webhooks = webhooks;
        this.egress = egress;
    }

    /**
     * Every tool, connected or not, in the order of the spec's tool list; 404 when the workspace does not exist.
     *
     * @param baseUrl the gateway's public base URL (webhook payload URLs are under it)
     */
    public Mono<List<ToolSettingsView>> list(UUID workspaceId, String baseUrl) {
        return Blocking.call(() -> {
            Set<Tool> paused = connections.pausedTools(workspaceId).orElseThrow(AdminRefusals::workspaceNotFound);
            Map<Tool, StoredToolConnection> connected = connections.list(workspaceId);
            return Arrays.stream(Tool.values())
                    .map(tool -> connected.containsKey(tool)
                            ? ToolSettingsView.of(connected.get(tool), baseUrl)
                            : ToolSettingsView.notConnected(tool, paused.contains(tool), baseUrl))
                    .toList();
        });
    }

    /** One connected tool; 404 {@value #NOT_CONNECTED}. */
    public Mono<ToolSettingsView> one(UUID workspaceId, Tool tool, String baseUrl) {
        return Blocking.call(() -> connections.find(workspaceId, tool).map(connection -> ToolSettingsView.of(connection, baseUrl))
                .orElseThrow(() -> ApiException.notFound(NOT_CONNECTED)));
    }

    /** A body as {@code PUT .../tools/{tool}} takes it (secrets: absent keeps, null removes, a string replaces). */
    public Mono<Applied> put(AuthenticatedUser user, UUID workspaceId, Tool tool, ObjectNode body, String correlationId) {
        return Mono.fromCallable(() -> {
            ToolConnectionRequest parsed = ToolConnectionBodies.parse(body, tool);
            egress.require("base_url", parsed.baseUrl());
            egress.require("mcp_server_url", parsed.mcpServerUrl());
            if (parsed.setsASecret()) {
                sealer.requireConfigured();
            }
            return parsed.toCommand(sealer);
        }).flatMap(command -> change(correlationId, user, workspaceId, tool, command));
    }

    public Mono<Applied> delete(AuthenticatedUser user, UUID workspaceId, Tool tool, String correlationId) {
        return change(correlationId, user, workspaceId, tool, new DeleteToolConnection(tool));
    }

    /**
     * Generates a new webhook secret, seals it, has the decision stream store it, and only then hands it back: a
     * secret the stream refused (no connection, a tool without webhooks) is never shown.
     */
    public Mono<RotatedSecret> rotateWebhookSecret(AuthenticatedUser user, UUID workspaceId, Tool tool, String baseUrl,
                                                   String correlationId) {
        return Mono.defer(() -> {
            if (!WebhookSetup.sendsWebhooks(tool)) {
                throw ApiException.badRequest(WEBHOOK_TOOLS_ONLY);
            }
            sealer.requireConfigured();
            PlainSecret secret = WebhookSecrets.generate();
            WebhookSetup setup = WebhookSetup.of(tool, baseUrl).orElseThrow();
            return change(correlationId, user, workspaceId, tool, new RotateWebhookSecret(tool, sealer.seal(secret)))
                    .then(Mono.fromSupplier(() -> new RotatedSecret(tool.wire(), setup.payloadUrl(), setup.contentType(),
                            secret.reveal())));
        });
    }

    /**
     * Sends a change of the workspace's connection to the decision stream. Every entry point that uses a
     * connection asks the stream for the current one (it names the version it holds), so the change is in
     * effect for every request accepted after this answer, on every replica, with no cache to tell. Only the
     * webhook verifier finds workspaces through the read model (which workspaces watch a repository or team
     * is an index across workspaces): a change of a tool that sends webhooks answers once deliveries see it
     * ({@link WebhookRouting}), so a repository it adds is found at once. A delete needs no wait: the stream
     * refuses deliveries verified with a connection it no longer has.
     */
    private Mono<Applied> change(String correlationId, AuthenticatedUser user, UUID workspaceId, Tool tool, Command command) {
        Mono<Applied> accepted = commands.send(correlationId, user, workspaceId, command, FIELDS);
        if (command instanceof DeleteToolConnection) {
            return accepted;
        }
        return accepted.flatMap(applied -> webhooks.awaitVisible(workspaceId, tool, applied.workspaceVersion()).thenReturn(applied));
    }
}
