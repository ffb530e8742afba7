package io.agentgateway.mcpgate;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.session.McpCaller;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.command.EvaluationOutcome;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How the gate says a decision in MCP's terms (spec 4.3): the fields that name the evaluation (its reason, audit entry,
 * correlation id and matched policy) are written by one method, whether they go into a -32001 error's {@code data},
 * the {@code _meta.service} of a result, or an upstream's error that followed an allow.
 */
final class McpDecisionAnswers {
    private McpDecisionAnswers() {}

    /** Blocked: -32001 with the fixed text and the reason (spec 7). */
    static JsonRpcError blocked(McpCaller caller, EvaluationOutcome outcome) {
        ObjectNode data = IngressJson.RESPONSES.createObjectNode();
        data.put("reason", outcome.reason());
        evaluation(data, outcome, caller);
        return new JsonRpcError(JsonRpcError.BLOCKED, JsonRpcError.BLOCKED_MESSAGE, data);
    }

    /** A held {@code tools/call}: the spec's text item telling the client to poll the status path. */
    static ObjectNode heldToolCall(McpCaller caller, EvaluationOutcome outcome) {
        ObjectNode result = IngressJson.RESPONSES.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text",
                "This tool call needs a human approval before it runs. Approval request "
                        + outcome.approvalRequestId() + " is pending; poll GET /functions/v1/mcp-gate/status/"
                        + outcome.approvalRequestId() + " with the same API key to see whether it was approved and,"
                        + " once executed, its result.");
        result.put("isError", false);
        ObjectNode service = meta(result).putObject("service");
        service.put("status", "require_approval");
        service.put("approvalRequestId", outcome.approvalRequestId());
        service.put("auditLogId", outcome.auditLogId());
        service.put("correlationId", caller.correlationId());
        return result;
    }

    /** A held {@code tools/list}: -32001 naming the approval request (nothing is listed until it is approved). */
    static JsonRpcError listNeedsApproval(McpCaller caller, EvaluationOutcome outcome) {
        return new JsonRpcError(JsonRpcError.BLOCKED, "This request needs a human approval (approval request "
                + outcome.approvalRequestId() + "); ask again once it is approved", approvalData(caller, outcome));
    }

    /**
     * A held read or prompt: -32001 as for a request that needs an approval, naming the approval request; the gateway
     * runs it once it is approved and its result is the approval's execution result (status endpoint).
     */
    static JsonRpcError heldRequest(McpCaller caller, String method, EvaluationOutcome outcome) {
        return new JsonRpcError(JsonRpcError.BLOCKED, "This " + method + " needs a human approval (approval request "
                + outcome.approvalRequestId() + "); once it is approved the gateway runs it, and its result is on GET "
                + "/functions/v1/mcp-gate/status/" + outcome.approvalRequestId() + " with the same API key",
                approvalData(caller, outcome));
    }

    /** The upstream's result of an allowed call, with the evaluation in {@code _meta.service}. */
    static JsonNode allowed(ObjectNode result, McpCaller caller, EvaluationOutcome outcome) {
        ObjectNode service = meta(result).putObject("service");
        service.put("status", "allowed");
        evaluation(service, outcome, caller);
        return result;
    }

    /** An upstream failure after an allow: its data names the evaluation (the audit entry) and the correlation id. */
    static JsonRpcError upstreamFailed(JsonRpcError failure, EvaluationOutcome outcome, McpCaller caller) {
        ObjectNode data = failure.data() instanceof ObjectNode given ? given.deepCopy()
                : IngressJson.RESPONSES.createObjectNode();
        if (failure.data() != null && !(failure.data() instanceof ObjectNode)) {
            data.set("upstream", failure.data());
        }
        data.put("auditLogId", outcome.auditLogId());
        data.put("correlationId", caller.correlationId());
        return failure.withData(data);
    }

    private static ObjectNode approvalData(McpCaller caller, EvaluationOutcome outcome) {
        ObjectNode data = IngressJson.RESPONSES.createObjectNode();
        data.put("status", "require_approval");
        data.put("approvalRequestId", outcome.approvalRequestId());
        data.put("reason", outcome.reason());
        evaluation(data, outcome, caller);
        return data;
    }

    private static void evaluation(ObjectNode into, EvaluationOutcome outcome, McpCaller caller) {
        into.put("auditLogId", outcome.auditLogId());
        into.put("correlationId", caller.correlationId());
        into.put("matchedPolicyId", outcome.matchedPolicyId());
    }

    private static ObjectNode meta(ObjectNode result) {
        JsonNode meta = result.get("_meta");
        return meta instanceof ObjectNode object ? object : result.putObject("_meta");
    }
}
