package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.JsonBodyReader;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * /admin/v1/workspaces/{workspaceId}/defaults: the decision per risk level when no policy matches.
 * GET fills levels the workspace never set with the built-in defaults (DESIGN.md: low and medium
 * allow, high require_approval, critical block); {@code approvalTtl} null means the decision
 * stream's built-in TTL.
 */
@Component
public class DefaultsAdminHandler {
    private static final Map<RiskLevel, Decision> BUILT_IN = Map.of(
            RiskLevel.LOW, Decision.ALLOW,
            RiskLevel.MEDIUM, Decision.ALLOW,
            RiskLevel.HIGH, Decision.REQUIRE_APPROVAL,
            RiskLevel.CRITICAL, Decision.BLOCK);

    private final AdminAccess access;
    private final AdminCommands commands;
    private final JsonBodyReader bodies;
    private final WorkspaceRepository workspaces;

    DefaultsAdminHandler(AdminAccess access, AdminCommands commands, JsonBodyReader bodies, WorkspaceRepository workspaces) {
        this.access = access;
        this.commands = commands;
        this.bodies = bodies;
        this.workspaces = workspaces;
    }

    record DefaultsView(boolean ok, Map<String, String> decisions, String approvalTtl, String timeZone) {}

    public Mono<ServerResponse> get(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> Blocking.call(() -> workspaces.defaults(caller.workspaceId()).orElse(null)))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound(WorkspaceStateHandler.WORKSPACE_NOT_FOUND)))
                .flatMap(stored -> JsonResponses.ok(view(stored)));
    }

    public Mono<ServerResponse> put(ServerRequest request) {
        return access.caller(request).flatMap(caller -> bodies.readObject(request)
                .map(DefaultsBodies::parse)
                .flatMap(command -> commands.send(request, caller.user(), caller.workspaceId(), command))
                .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE)));
    }

    private static DefaultsView view(WorkspaceRepository.StoredDefaults stored) {
        Map<String, String> decisions = new LinkedHashMap<>();
        for (RiskLevel level : RiskLevel.values()) {
            decisions.put(level.wire(), storedDecision(stored.decisions(), level).orElse(BUILT_IN.get(level)).wire());
        }
        String ttl = stored.approvalTtlSeconds() == null ? null : Duration.ofSeconds(stored.approvalTtlSeconds()).toString();
        return new DefaultsView(true, decisions, ttl, stored.timeZone() == null ? "UTC" : stored.timeZone());
    }

    /** The projector's map may spell levels and decisions in either case; anything unreadable counts as unset. */
    private static Optional<Decision> storedDecision(JsonNode decisions, RiskLevel level) {
        if (decisions == null || !decisions.isObject()) {
            return Optional.empty();
        }
        for (Map.Entry<String, JsonNode> entry : decisions.properties()) {
            if (entry.getKey().equalsIgnoreCase(level.wire()) && entry.getValue().isString()) {
                return Decision.parse(entry.getValue().stringValue().toLowerCase(Locale.ROOT));
            }
        }
        return Optional.empty();
    }
}
