package io.agentgateway.adminapi.policies;

import static io.agentgateway.httpedge.web.JsonFields.optionalString;

import io.agentgateway.decisioncore.condition.ActionFacts;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.httpedge.web.WireNames;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.condition.RequestFacts;
import io.agentgateway.schemas.command.condition.TargetFacts;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates {@code POST /admin/v1/workspaces/{id}/policy-tests}: {@code policies} (a draft policy set, as the back-test
 * takes it) and either {@code action} (a sample action) or {@code auditLogId} (a recorded evaluation of the workspace).
 */
final class PolicyTestBodies {
    private static final Set<String> FIELDS = Set.of("policies", "action", "auditLogId");
    private static final Set<String> ACTION_FIELDS = Set.of("tool", "action", "riskLevel", "agentId", "agentName",
            "agentIdentity", "resourceType", "resourceId", "payload", "requestedBy", "source", "at", "request", "target");
    private static final Set<String> REQUEST_FIELDS = Set.of("method", "path", "query", "operationName", "mutationFields");
    private static final Set<String> TARGET_FIELDS = Set.of("owner", "repo", "branch", "path", "team", "organization", "labels");

    /** A sample action as the decision core reads one (risk as supplied: the test classifies it as the stream does). */
    record Sample(Tool tool, String action, RiskLevel suppliedRisk, String agentId, AgentIdentity identity, String resourceType,
                  String resourceId, ActionSource source, ActionFacts facts) {}

    /** A parsed test: the drafts, and a sample or the id of a recorded evaluation. */
    record PolicyTest(List<Policy> policies, Sample sample, UUID auditLogId) {}

    private PolicyTestBodies() {}

    static PolicyTest parse(ObjectNode body, ConditionEnvironment conditions, Instant now) {
        JsonFields.onlyKnownFields(body, FIELDS, "");
        if (JsonFields.isAbsent(body, "policies")) {
            throw ApiException.badRequest("policies is required (an array of policy bodies, the draft set to test)");
        }
        List<Policy> policies = CandidatePolicies.parse(body.get("policies"), conditions);
        boolean hasAction = !JsonFields.isAbsent(body, "action");
        boolean hasAudit = !JsonFields.isAbsent(body, "auditLogId");
        if (hasAction == hasAudit) {
            throw ApiException.badRequest("give either action (a sample action) or auditLogId (a recorded evaluation)");
        }
        if (hasAudit) {
            JsonNode id = body.get("auditLogId");
            return new PolicyTest(policies, null, Uuids.require(id.isString() ? id.stringValue() : null, "auditLogId"));
        }
        if (!(body.get("action") instanceof ObjectNode action)) {
            throw ApiException.badRequest("action must be an object");
        }
        return new PolicyTest(policies, sample(action, now), null);
    }

    private static Sample sample(ObjectNode action, Instant now) {
        JsonFields.onlyKnownFields(action, ACTION_FIELDS, "action.");
        Tool tool = JsonFields.requiredEnum(action, "tool", Tool::parse, "action.tool must be one of: " + WireNames.of(Tool.values()));
        String name = JsonFields.requiredText(action, "action", "action.action must be a non-empty string");
        RiskLevel risk = JsonFields.requiredEnum(action, "riskLevel", RiskLevel::parse,
                "action.riskLevel must be one of: " + WireNames.of(RiskLevel.values()));
        ActionSource source = JsonFields.optionalEnum(action, "source", ActionSource::parse,
                "action.source must be one of: " + WireNames.of(ActionSource.values()));
        AgentIdentity identity = JsonFields.optionalEnum(action, "agentIdentity", AgentIdentity::parse,
                "action.agentIdentity must be one of: " + WireNames.of(AgentIdentity.values()));
        Instant at = JsonFields.optionalInstant(action, "at");
        JsonNode payload = action.get("payload");
        ActionFacts facts = new ActionFacts(payload == null || payload.isNull() ? null : payload, null,
                request(action.get("request")), target(action.get("target")), null, optionalString(action, "requestedBy"),
                optionalString(action, "agentName"), at == null ? now : at);
        String agentId = optionalString(action, "agentId");
        return new Sample(tool, name, risk, agentId, agentId == null ? null : identity == null ? AgentIdentity.ASSERTED : identity,
                optionalString(action, "resourceType"), optionalString(action, "resourceId"),
                source == null ? ActionSource.EVALUATE : source, facts);
    }

    private static RequestFacts request(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!(node instanceof ObjectNode request)) {
            throw ApiException.badRequest("action.request must be an object");
        }
        JsonFields.onlyKnownFields(request, REQUEST_FIELDS, "action.request.");
        Map<String, List<String>> query = null;
        JsonNode queryNode = request.get("query");
        if (queryNode != null && !queryNode.isNull()) {
            if (!queryNode.isObject()) {
                throw ApiException.badRequest("action.request.query must be an object of string arrays");
            }
            query = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : queryNode.properties()) {
                query.put(entry.getKey(), JsonFields.stringList(queryNode, entry.getKey(), "action.request.query." + entry.getKey()));
            }
        }
        return new RequestFacts(optionalString(request, "method"), listOrNull(request, "path", "action.request.path"),
                query, optionalString(request, "operationName"),
                listOrNull(request, "mutationFields", "action.request.mutationFields"));
    }

    /** Absent stays absent (a condition reading it fails, as for a fact the gateway does not know). */
    private static List<String> listOrNull(ObjectNode container, String field, String name) {
        return JsonFields.isAbsent(container, field) ? null : JsonFields.stringList(container, field, name);
    }

    private static TargetFacts target(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!(node instanceof ObjectNode target)) {
            throw ApiException.badRequest("action.target must be an object");
        }
        JsonFields.onlyKnownFields(target, TARGET_FIELDS, "action.target.");
        return new TargetFacts(optionalString(target, "owner"), optionalString(target, "repo"), optionalString(target, "branch"),
                optionalString(target, "path"), optionalString(target, "team"), optionalString(target, "organization"),
                listOrNull(target, "labels", "action.target.labels"));
    }
}
