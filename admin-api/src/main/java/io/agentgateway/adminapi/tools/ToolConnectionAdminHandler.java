package io.agentgateway.adminapi.tools;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.adminapi.shared.ItemsResponse;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import io.agentgateway.schemas.Tool;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * /admin/v1/workspaces/{workspaceId}/tools[/{tool}[/webhook-secret]]: the HTTP side of {@link ToolConnections}. Reads
 * come from the projected {@code tool_connections}; every change is a command through the log, so every replica sees
 * the connections change in the same order as the decisions. Secrets are write-only: sealed before they go into a
 * command, shown as {@code accessTokenSet} / {@code webhookSecretSet} only, except a generated webhook secret, which
 * its rotation answers once.
 */
@Component
public class ToolConnectionAdminHandler {
    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final ToolConnections tools;
    private final PublicBaseUrl baseUrl;

    ToolConnectionAdminHandler(AdminAccess access, JsonBodyReader bodies, ToolConnections tools, PublicBaseUrl baseUrl) {
        this.access = access;
        this.bodies = bodies;
        this.tools = tools;
        this.baseUrl = baseUrl;
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
        return access.admin(request)
                .flatMap(caller -> tools.list(caller.workspaceId(), baseUrl.of(request)))
                .flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    public Mono<ServerResponse> get(ServerRequest request) {
        return access.admin(request).flatMap(caller -> {
            Tool tool = tool(request);
            return tools.one(caller.workspaceId(), tool, baseUrl.of(request))
                    .flatMap(view -> JsonResponses.ok(new One(true, view)));
        });
    }

    public Mono<ServerResponse> put(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            Tool tool = tool(request);
            return bodies.readObject(request)
                    .flatMap(body -> tools.put(caller.user(), caller.workspaceId(), tool, body, CorrelationIds.of(request)))
                    .then(JsonResponses.ok(new Saved(true, tool.wire())));
        });
    }

    public Mono<ServerResponse> delete(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            Tool tool = tool(request);
            return tools.delete(caller.user(), caller.workspaceId(), tool, CorrelationIds.of(request))
                    .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
        });
    }

    public Mono<ServerResponse> rotateWebhookSecret(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            Tool tool = tool(request);
            return tools.rotateWebhookSecret(caller.user(), caller.workspaceId(), tool, baseUrl.of(request), CorrelationIds.of(request))
                    .flatMap(rotated -> JsonResponses.okShowingASecret(new RotatedSecret(true, rotated.tool(),
                            new WebhookSetupWithSecret(rotated.payloadUrl(), rotated.contentType(), rotated.secret()))));
        });
    }

    /** The path's tool: 400 {@value ToolConnections#TOOL_MESSAGE}-style for anything else. */
    static Tool tool(ServerRequest request) {
        return Tool.parse(request.pathVariable("tool")).orElseThrow(() -> ApiException.badRequest(ToolConnections.TOOL_MESSAGE));
    }
}
