package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.web.ApiException;
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
        AuditFilterParams filters = AuditFilterParams.from(request);
        String cursorText = AuditFilterParams.param(request, "cursor");
        AuditCursor cursor = cursorText == null ? null : AuditCursor.decode(cursorText);
        return new AuditLogQuery(filters.correlationId(), filters.agentId(), filters.tool(), filters.decision(),
                filters.from(), filters.to(), limit(AuditFilterParams.param(request, "limit")), cursor);
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
}
