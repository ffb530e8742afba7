package io.agentgateway.adminapi.policies;

import io.agentgateway.adminapi.shared.AdminCommands;
import io.agentgateway.adminapi.shared.AdminRefusals;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A workspace's defaults (the decision per risk level when no policy matches, the approval TTL, the time zone of policy
 * conditions), for every client of them (the admin API, the console): read as the API shows them (levels never set
 * show the built-in defaults: low and medium allow, high require_approval, critical block), changed with the API's body
 * ({@link DefaultsBodies}, field-addressed 400s) as one command through the decision stream.
 */
@Service
public class WorkspaceDefaults {
    static final Map<RiskLevel, Decision> BUILT_IN = Map.of(
            RiskLevel.LOW, Decision.ALLOW,
            RiskLevel.MEDIUM, Decision.ALLOW,
            RiskLevel.HIGH, Decision.REQUIRE_APPROVAL,
            RiskLevel.CRITICAL, Decision.BLOCK);

    /**
     * @param decisions   every risk level's decision, by wire name, in the order low to critical
     * @param approvalTtl ISO-8601, or null: the decision stream's built-in TTL
     */
    public record View(Map<String, String> decisions, String approvalTtl, String timeZone) {}

    private final AdminCommands commands;
    private final DefaultsRepository workspaces;

    WorkspaceDefaults(AdminCommands commands, DefaultsRepository workspaces) {
        this.commands = commands;
        this.workspaces = workspaces;
    }

    /** The workspace's defaults as the API shows them; 404 when the workspace does not exist. */
    public Mono<View> view(UUID workspaceId) {
        return Blocking.call(() -> workspaces.defaults(workspaceId).map(WorkspaceDefaults::view)
                .orElseThrow(AdminRefusals::workspaceNotFound));
    }

    /** {@code {decisions, approvalTtl, timeZone}} as {@code PUT .../defaults} takes it; any part may be left out. */
    public Mono<Applied> set(AuthenticatedUser user, UUID workspaceId, ObjectNode body, String correlationId) {
        return Mono.fromCallable(() -> DefaultsBodies.parse(body))
                .flatMap(command -> commands.send(correlationId, user, workspaceId, command));
    }

    private static View view(DefaultsRepository.StoredDefaults stored) {
        Map<String, String> decisions = new LinkedHashMap<>();
        for (RiskLevel level : RiskLevel.values()) {
            decisions.put(level.wire(), storedDecision(stored.decisions(), level).orElse(BUILT_IN.get(level)).wire());
        }
        String ttl = stored.approvalTtlSeconds() == null ? null : Duration.ofSeconds(stored.approvalTtlSeconds()).toString();
        return new View(decisions, ttl, stored.timeZone() == null ? "UTC" : stored.timeZone());
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
