package io.agentgateway.adminapi.policies;

import static io.agentgateway.httpedge.web.JsonFields.enumSet;
import static io.agentgateway.httpedge.web.JsonFields.isAbsent;
import static io.agentgateway.httpedge.web.JsonFields.onlyKnownFields;
import static io.agentgateway.httpedge.web.JsonFields.stringList;

import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.condition.ConditionLimits;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.httpedge.web.WireNames;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.util.Set;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates a policy body. Unknown fields are refused, in {@code match} above all: a misspelt
 * {@code "tool"} for {@code "tools"} would otherwise silently widen a policy to every tool. A {@code condition} is
 * compiled and type-checked here as the decision core will (docs/policies.md): one that does not compile is a 400
 * naming its line, column and problem (the decision stream refuses it too, in log order).
 */
final class PolicyBodies {
    static final String DECISION_MESSAGE = "decision must be one of: " + WireNames.of(Decision.values());
    private static final Set<String> FIELDS = Set.of("id", "name", "priority", "enabled", "decision", "match", "description",
            "condition");
    private static final Set<String> MATCH_FIELDS =
            Set.of("tools", "actions", "riskLevels", "agentIds", "resourceTypes", "resourceIds", "sources", "agentIdentity");

    private PolicyBodies() {}

    /**
     * @param policyId   the id the policy gets (new for POST, the path's for PUT)
     * @param idInPath   whether the id came from the path, in which case a body id must equal it
     */
    static Policy parse(ObjectNode body, UUID policyId, boolean idInPath) {
        return parse(body, policyId, idInPath, ConditionEnvironment.of(ConditionLimits.defaults()));
    }

    /** @param conditions the decision stream's condition environment ({@code gateway.decision.conditions.*}) */
    static Policy parse(ObjectNode body, UUID policyId, boolean idInPath, ConditionEnvironment conditions) {
        onlyKnownFields(body, FIELDS, "");
        if (!isAbsent(body, "id")) {
            String given = body.get("id").isString() ? body.get("id").stringValue() : null;
            if (!idInPath) {
                throw ApiException.badField("id", "id is assigned by the server");
            }
            if (!Uuids.canonical(given).map(policyId.toString()::equals).orElse(false)) {
                throw ApiException.badField("id", "id must equal the policy id of the path");
            }
        }
        String name = JsonFields.requiredText(body, "name", "name must be a non-empty string").strip();
        int priority = JsonFields.requiredInt(body, "priority");
        boolean enabled = JsonFields.optionalBoolean(body, "enabled", true);
        Decision decision = JsonFields.requiredEnum(body, "decision", Decision::parse, DECISION_MESSAGE);
        PolicyMatch match = match(body.get("match"));
        String description = JsonFields.optionalString(body, "description");
        String condition = JsonFields.optionalString(body, "condition");
        if (condition != null) {
            if (condition.isBlank()) {
                throw ApiException.badField("condition", "condition must be a non-empty CEL expression, or absent");
            }
            conditions.check(condition).ifPresent(problem -> {
                throw ApiException.badField("condition", problem.describe());
            });
        }
        return new Policy(policyId.toString(), name, priority, enabled, decision, match, description, condition);
    }

    private static PolicyMatch match(JsonNode match) {
        if (match == null || match.isNull()) {
            return PolicyMatch.any();
        }
        if (!match.isObject()) {
            throw ApiException.badField("match", "match must be an object");
        }
        onlyKnownFields(match, MATCH_FIELDS, "match.");
        return new PolicyMatch(
                enumSet(match, "tools", Tool::parse, "match.tools must be an array of: " + WireNames.of(Tool.values())),
                stringList(match, "actions", "match.actions"),
                enumSet(match, "riskLevels", RiskLevel::parse, "match.riskLevels must be an array of: " + WireNames.of(RiskLevel.values())),
                stringList(match, "agentIds", "match.agentIds"),
                stringList(match, "resourceTypes", "match.resourceTypes"),
                stringList(match, "resourceIds", "match.resourceIds"),
                enumSet(match, "sources", ActionSource::parse, "match.sources must be an array of: " + WireNames.of(ActionSource.values())),
                // bound = the agent id must be the one the API key is bound to, not merely asserted by the caller
                JsonFields.optionalEnum((ObjectNode) match, "agentIdentity", AgentIdentity::parse,
                        "match.agentIdentity must be one of: " + WireNames.of(AgentIdentity.values())));
    }
}
