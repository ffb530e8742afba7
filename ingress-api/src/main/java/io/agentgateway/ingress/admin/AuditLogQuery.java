package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.JsonFields;
import io.agentgateway.ingress.web.Uuids;
import io.agentgateway.ingress.web.WireNames;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Tool;
import java.time.Instant;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The filters of GET .../audit-log: correlationId (uuid), agentId, tool, decision, from (inclusive),
 * to (exclusive), limit (1..500, default 50) and cursor (from the previous page's nextCursor).
 */
record AuditLogQuery(String correlationId, String agentId, Tool tool, Decision decision, Instant from, Instant to,
                     int limit, AuditCursor cursor) {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    static final String LIMIT_MESSAGE = "limit must be an integer between 1 and " + MAX_LIMIT;

    static AuditLogQuery from(ServerRequest request) {
        String correlationId = param(request, "correlationId");
        if (correlationId != null) {
            correlationId = Uuids.canonical(correlationId).orElseThrow(() -> ApiException.badRequest("correlationId must be a uuid"));
        }
        String agentId = param(request, "agentId");
        String toolText = param(request, "tool");
        Tool tool = toolText == null ? null : Tool.parse(toolText)
                .orElseThrow(() -> ApiException.badRequest("tool must be one of: " + WireNames.of(Tool.values())));
        String decisionText = param(request, "decision");
        Decision decision = decisionText == null ? null : Decision.parse(decisionText)
                .orElseThrow(() -> ApiException.badRequest(PolicyBodies.DECISION_MESSAGE));
        String fromText = param(request, "from");
        Instant from = fromText == null ? null : JsonFields.instant(fromText, "from");
        String toText = param(request, "to");
        Instant to = toText == null ? null : JsonFields.instant(toText, "to");
        if (from != null && to != null && !from.isBefore(to)) {
            throw ApiException.badRequest("from must be before to");
        }
        String cursorText = param(request, "cursor");
        AuditCursor cursor = cursorText == null ? null : AuditCursor.decode(cursorText);
        return new AuditLogQuery(correlationId, agentId, tool, decision, from, to, limit(param(request, "limit")), cursor);
    }

    private static int limit(String text) {
        if (text == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(text);
            if (limit < 1 || limit > MAX_LIMIT) {
                throw ApiException.badRequest(LIMIT_MESSAGE);
            }
            return limit;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(LIMIT_MESSAGE);
        }
    }

    /** A query parameter; an empty value counts as absent (forms send {@code ?tool=}). */
    private static String param(ServerRequest request, String name) {
        return request.queryParam(name).filter(value -> !value.isEmpty()).orElse(null);
    }
}
