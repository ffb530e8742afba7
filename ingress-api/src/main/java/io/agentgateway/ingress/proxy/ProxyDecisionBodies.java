package io.agentgateway.ingress.proxy;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.agentgateway.schemas.command.EvaluationOutcome;

/** The proxy's own answers when it does not forward: blocked (403) and held for approval (202). */
final class ProxyDecisionBodies {
    static final String BLOCKED = "Blocked by the gateway";
    static final String STATUS_PATH = "/functions/v1/mcp-gate/status/";

    private ProxyDecisionBodies() {}

    /** 403: the upstream never saw the call. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Blocked(boolean ok, String error, String decision, String reason, String auditLogId, String correlationId,
                   String matchedPolicyId) {
        static Blocked of(EvaluationOutcome outcome, String correlationId) {
            return new Blocked(false, BLOCKED, "block", outcome.reason(), outcome.auditLogId(), correlationId,
                    outcome.matchedPolicyId());
        }
    }

    /**
     * 202: held for a reviewer. Once approved, the gateway sends the request once; its response is the
     * approval's {@code executionResult} at {@code statusUrl} (polled with the same API key).
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Held(boolean ok, String decision, String reason, String approvalRequestId, String statusUrl,
                String auditLogId, String correlationId, String matchedPolicyId) {
        static Held of(EvaluationOutcome outcome, String correlationId) {
            return new Held(true, "require_approval", outcome.reason(), outcome.approvalRequestId(),
                    STATUS_PATH + outcome.approvalRequestId(), outcome.auditLogId(), correlationId,
                    outcome.matchedPolicyId());
        }
    }
}
