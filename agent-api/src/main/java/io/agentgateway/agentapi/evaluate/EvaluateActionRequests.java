package io.agentgateway.agentapi.evaluate;

import static io.agentgateway.httpedge.web.JsonFields.optionalString;
import static io.agentgateway.httpedge.web.JsonFields.requiredEnum;
import static io.agentgateway.httpedge.web.JsonFields.requiredText;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.WireNames;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.EvaluateAction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Validates an evaluate-action body (spec 4.1) in the documented order and builds the command. */
final class EvaluateActionRequests {
    static final String TOOL_MESSAGE = "tool must be one of: " + WireNames.of(Tool.values());
    static final String RISK_MESSAGE = "riskLevel must be one of: " + WireNames.of(RiskLevel.values());
    static final String ACTION_MESSAGE = "action must be a non-empty string";
    static final String PAYLOAD_MESSAGE = "payload must be an object";

    private EvaluateActionRequests() {}

    /**
     * @param agentIdHeader {@code X-Agent-Id}, used as the agent id when the body names none
     */
    static EvaluateAction parse(ObjectNode body, String agentIdHeader) {
        Tool tool = requiredEnum(body, "tool", Tool::parse, TOOL_MESSAGE);
        RiskLevel riskLevel = requiredEnum(body, "riskLevel", RiskLevel::parse, RISK_MESSAGE);
        String action = requiredText(body, "action", ACTION_MESSAGE);
        String agentId = optionalString(body, "agentId");
        String agentName = optionalString(body, "agentName");
        String resourceType = optionalString(body, "resourceType");
        String resourceId = optionalString(body, "resourceId");
        String requestedBy = optionalString(body, "requestedBy");
        JsonNode payload = body.get("payload");
        if (payload != null && payload.isNull()) {
            payload = null;
        }
        if (payload != null && !payload.isObject()) {
            throw ApiException.badRequest(PAYLOAD_MESSAGE);
        }
        return EvaluateAction.builder(tool, action, riskLevel)
                .from(ActionSource.EVALUATE, Scope.EVALUATE)
                .agent(agentId != null ? agentId : agentIdHeader, agentName)
                .resource(resourceType, resourceId)
                .payload(payload)
                .requestedBy(requestedBy)
                .build();
    }
}
