package io.agentgateway.adminapi.audit;

import io.agentgateway.adminapi.shared.QueryParams;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.httpedge.web.WireNames;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.time.Instant;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The audit-log filters that the query and the export share, with the same 400 texts: correlationId
 * (uuid), agentId, tool, decision, action, risk, source, undelivered (true or false), from (inclusive) and to
 * (exclusive, after from), each optional here.
 */
record AuditFilterParams(String correlationId, String agentId, Tool tool, Decision decision, Instant from, Instant to,
                         String action, RiskLevel riskLevel, ActionSource source, Boolean undelivered) {
    static final String RISK_MESSAGE = "risk must be one of: " + WireNames.of(RiskLevel.values());
    static final String SOURCE_MESSAGE = "source must be one of: " + WireNames.of(ActionSource.values());
    static final String UNDELIVERED_MESSAGE = "undelivered must be true or false";
    static final String DECISION_MESSAGE = "decision must be one of: " + WireNames.of(Decision.values());

    static AuditFilterParams from(ServerRequest request) {
        String correlationId = QueryParams.param(request, "correlationId");
        if (correlationId != null) {
            correlationId = Uuids.canonical(correlationId).orElseThrow(() -> ApiException.badRequest("correlationId must be a uuid"));
        }
        String agentId = QueryParams.param(request, "agentId");
        String toolText = QueryParams.param(request, "tool");
        Tool tool = toolText == null ? null : Tool.parse(toolText)
                .orElseThrow(() -> ApiException.badRequest("tool must be one of: " + WireNames.of(Tool.values())));
        String decisionText = QueryParams.param(request, "decision");
        Decision decision = decisionText == null ? null : Decision.parse(decisionText)
                .orElseThrow(() -> ApiException.badRequest(DECISION_MESSAGE));
        String fromText = QueryParams.param(request, "from");
        Instant from = fromText == null ? null : JsonFields.instant(fromText, "from");
        String toText = QueryParams.param(request, "to");
        Instant to = toText == null ? null : JsonFields.instant(toText, "to");
        if (from != null && to != null && !from.isBefore(to)) {
            throw ApiException.badRequest("from must be before to");
        }
        String action = QueryParams.param(request, "action");
        String riskText = QueryParams.param(request, "risk");
        RiskLevel risk = riskText == null ? null : RiskLevel.parse(riskText).orElseThrow(() -> ApiException.badRequest(RISK_MESSAGE));
        String sourceText = QueryParams.param(request, "source");
        ActionSource source = sourceText == null ? null
                : ActionSource.parse(sourceText).orElseThrow(() -> ApiException.badRequest(SOURCE_MESSAGE));
        String undeliveredText = QueryParams.param(request, "undelivered");
        Boolean undelivered = undeliveredText == null ? null : switch (undeliveredText) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw ApiException.badRequest(UNDELIVERED_MESSAGE);
        };
        return new AuditFilterParams(correlationId, agentId, tool, decision, from, to, action, risk, source, undelivered);
    }
}
