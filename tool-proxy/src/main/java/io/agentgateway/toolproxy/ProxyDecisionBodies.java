package io.agentgateway.toolproxy;

import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.command.EvaluationOutcome;
import tools.jackson.databind.node.ObjectNode;

/**
 * The proxy's own answers when it does not forward, blocked and held for approval, in the error
 * dialect of the tool's API ({@link ProxyDialect}) so that the tool's SDK throws an error that says
 * what happened, with the gateway's fields beside:
 * {@code ok:false, error, decision, reason, approvalRequestId, statusUrl, auditLogId, correlationId,
 * matchedPolicyId}. Both are errors to the client (a held call has not run; it runs once, later, if a
 * reviewer approves it), so neither may look like a success: see {@link ProxyProperties#heldStatus()}.
 */
final class ProxyDecisionBodies {
    static final String BLOCKED = "Blocked by the gateway";
    static final String HELD = "Held for approval by the gateway";
    static final String STATUS_PATH = "/functions/v1/mcp-gate/status/";
    /** {@code extensions.code} of the GraphQL dialect, and what agent code can branch on. */
    static final String BLOCKED_CODE = "GATEWAY_BLOCKED";
    static final String HELD_CODE = "GATEWAY_APPROVAL_REQUIRED";
    /**
     * Both decisions are a call the agent may not make now: the Linear SDK's {@code ForbiddenLinearError}, as the
     * 403 is octokit's; {@code extensions.code} and {@code decision} tell a block from a hold.
     */
    private static final String FORBIDDEN_TYPE = "forbidden";

    private ProxyDecisionBodies() {}

    /**
     * Blocked: the upstream never saw the call.
     *
     * @param documentationUrl {@code gateway.proxy.documentation-url}, or null (then the REST dialect has none)
     */
    static ObjectNode blocked(ProxyDialect dialect, EvaluationOutcome outcome, String correlationId, String documentationUrl) {
        String message = BLOCKED + (outcome.reason() == null ? "" : ": " + outcome.reason());
        ObjectNode gateway = gatewayFields(BLOCKED, "block", outcome, correlationId, null);
        return dialect.error(message, BLOCKED_CODE, FORBIDDEN_TYPE, documentationUrl, gateway);
    }

    /**
     * Held for a reviewer. Once approved, the gateway sends the request once; its response is the
     * approval's {@code executionResult} at {@code statusUrl} (polled with the same API key), which the
     * message names absolutely, so that the text an SDK shows its caller says where the outcome will be.
     *
     * @param gatewayBase      the gateway's public base URL, for the absolute status URL
     * @param documentationUrl {@code gateway.proxy.documentation-url}, or null
     */
    static ObjectNode held(ProxyDialect dialect, EvaluationOutcome outcome, String correlationId, String gatewayBase,
                           String documentationUrl) {
        String statusPath = STATUS_PATH + outcome.approvalRequestId();
        String message = HELD + ": approval " + outcome.approvalRequestId() + " waits for a reviewer"
                + (outcome.reason() == null ? "" : " (" + outcome.reason() + ")")
                + "; the call has not run and runs once if approved, do not retry it; its outcome: " + gatewayBase + statusPath;
        ObjectNode gateway = gatewayFields(HELD, "require_approval", outcome, correlationId, statusPath);
        return dialect.error(message, HELD_CODE, FORBIDDEN_TYPE, documentationUrl, gateway);
    }

    private static ObjectNode gatewayFields(String error, String decision, EvaluationOutcome outcome, String correlationId,
                                            String statusPath) {
        ObjectNode fields = IngressJson.RESPONSES.createObjectNode();
        fields.put("ok", false);
        fields.put("error", error);
        fields.put("decision", decision);
        fields.put("reason", outcome.reason());
        if (statusPath != null) {
            fields.put("approvalRequestId", outcome.approvalRequestId());
            fields.put("statusUrl", statusPath);
        }
        fields.put("auditLogId", outcome.auditLogId());
        fields.put("correlationId", correlationId);
        fields.put("matchedPolicyId", outcome.matchedPolicyId());
        return fields;
    }
}
