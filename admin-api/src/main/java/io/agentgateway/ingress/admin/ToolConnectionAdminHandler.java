package io.agentgateway.ingress.admin;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.ingress.admin.AdminAccess.WorkspaceCaller;
import io.agentgateway.ingress.connection.StoredToolConnection;
import io.agentgateway.ingress.connection.ToolConnectionRepository;
import io.agentgateway.ingress.connection.WebhookRouting;
import io.agentgateway.ingress.egress.EgressUrls;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.JsonBodyReader;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.ingress.web.PublicBaseUrl;
import io.agentgateway.ingress.web.WebhookSetup;
import io.agentgateway.ingress.web.WireNames;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.secret.PlainSecret;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * /admin/v1/workspaces/{workspaceId}/tools[/{tool}[/webhook-secret]]: the tool settings. Reads come
 * from the projected {@code tool_connections}; every change is a command through the log, so every
 * replica sees the connections change in the same order as the decisions. Secrets are write-only:
 * sealed here before they go into a command, shown as {@code accessTokenSet} / {@code webhookSecretSet}
 * only, except a generated webhook secret, which its rotation answers once.
 */
@Component
public class ToolConnectionAdminHandler {
    static final String TOOL_MESSAGE = "tool must be one of: " + WireNames.of(Tool.values());
    static final String NOT_CONNECTED = "Tool connection not found";
    static final String WEBHOOK_TOOLS_ONLY = "webhook secrets are only for the "
            + ToolProfiles.listed(ToolProfile::sendsWebhooks, "and") + " tools (the tools that send webhooks)";

    private final AdminAccess access;
    private final AdminCommands commands;
    private final JsonBodyReader bodies;
    private final ToolConnectionRepository connections;
    private final SecretSealer sealer;
    private final PublicBaseUrl baseUrl;
    private final WebhookRouting webhooks;
    private final EgressUrls egress;

    ToolConnectionAdminHandler(AdminAccess access, AdminCommands commands, JsonBodyReader bodies,
                               ToolConnectionRepository connections, SecretSealer sealer, PublicBaseUrl baseUrl,
                               WebhookRouting webhooks, EgressUrls egress) {
        this.access = access;
        this.commands = commands;
        this.bodies = bodies;
        this.connections = connections;
        this.sealer = sealer;
        this.baseUrl = baseUrl;
        this.webhooks = webhooks;
        this.egress = egress;
    }

    record One(boolean ok, @JsonUnwrapped ToolSettingsView tool) {}

    record Saved(boolean ok, String tool) {}

    /** The generated secret, shown this once, with the other values to enter upstream. */
    record RotatedSecret(boolean ok, String tool, WebhookSetupWithSecret webhook) {}

    record WebhookSetupWithSecret(String payloadUrl, String contentType, String secret) {
        /** Written once into the response body; never into a log line by way of toString. */
        @Override
        public String toString() {
            return "WebhookSetupWithSecret[payloadUrl=" + payloadUrl + ", contentType=" + contentType + ", secret=redacted]";
        }
    }

    /** Every tool, connected or not, in the order of the spec's tool list. */
    public Mono<ServerResponse> list(ServerRequest request) {
        return access.admin(request).flatMap(caller -> Blocking.call(() -> {
            Set<Tool> paused = connections.pausedTools(caller.workspaceId())
                    .orElseThrow(() -> ApiException.notFound(WorkspaceStateHandler.WORKSPACE_NOT_FOUND));
            Map<Tool, StoredToolConnection> connected = connections.list(caller.workspaceId());
            String base = baseUrl.of(request);
            List<ToolSettingsView> items = Arrays.stream(Tool.values())
                    .map(tool -> connected.containsKey(tool)
                            ? ToolSettingsView.of(connected.get(tool), base)
                            : ToolSettingsView.notConnected(tool, paused.contains(tool), base))
                    .toList();
            return ItemsResponse.of(items);
        })).flatMap(JsonResponses::ok);
    }

    public Mono<ServerResponse> get(ServerRequest request) {
        return access.admin(request).flatMap(caller -> {
            Tool tool = tool(request);
            return Blocking.call(() -> connections.find(caller.workspaceId(), tool)
                            .orElseThrow(() -> ApiException.notFound(NOT_CONNECTED)))
                    .flatMap(connection -> JsonResponses.ok(new One(true, ToolSettingsView.of(connection, baseUrl.of(request)))));
        });
    }

    public Mono<ServerResponse> put(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            Tool tool = tool(request);
            return bodies.readObject(request).flatMap(body -> {
                ToolConnectionRequest parsed = ToolConnectionBodies.parse(body, tool);
                egress.require("base_url", parsed.baseUrl());
                egress.require("mcp_server_url", parsed.mcpServerUrl());
                if (parsed.setsASecret()) {
                    sealer.requireConfigured();
                }
                return change(request, caller, tool, parsed.toCommand(sealer))
                        .then(JsonResponses.ok(new Saved(true, tool.wire())));
            });
        });
    }

    public Mono<ServerResponse> delete(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            Tool tool = tool(request);
            return change(request, caller, tool, new DeleteToolConnection(tool))
                    .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
        });
    }

    /**
     * Generates a new webhook secret, seals it, has the decision stream store it, and only then shows
     * it: a secret the stream refused (no connection, a tool without webhooks) is never shown.
     */
    public Mono<ServerResponse> rotateWebhookSecret(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            Tool tool = tool(request);
            if (!WebhookSetup.sendsWebhooks(tool)) {
                throw ApiException.badRequest(WEBHOOK_TOOLS_ONLY);
            }
            sealer.requireConfigured();
            PlainSecret secret = WebhookSecrets.generate();
            WebhookSetup setup = WebhookSetup.of(tool, baseUrl.of(request)).orElseThrow();
            return change(request, caller, tool, new RotateWebhookSecret(tool, sealer.seal(secret)))
                    .then(Mono.defer(() -> JsonResponses.okShowingASecret(new RotatedSecret(true, tool.wire(),
                            new WebhookSetupWithSecret(setup.payloadUrl(), setup.contentType(), secret.reveal())))));
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
    private Mono<Reply> change(ServerRequest request, WorkspaceCaller caller, Tool tool, Command command) {
        Mono<Reply> accepted = commands.send(request, caller.user(), caller.workspaceId(), command);
        if (command instanceof DeleteToolConnection) {
            return accepted;
        }
        return accepted.flatMap(reply -> webhooks.awaitVisible(caller.workspaceId(), tool, reply.workspaceVersion())
                .thenReturn(reply));
    }

    private static Tool tool(ServerRequest request) {
        return Tool.parse(request.pathVariable("tool")).orElseThrow(() -> ApiException.badRequest(TOOL_MESSAGE));
    }
}
