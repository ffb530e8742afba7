package io.agentgateway.ingress.admin;

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
    static final String LIMIT_MESSAGE = QueryParams.limitMessage(MAX_LIMIT);

    static AuditLogQuery from(ServerRequest request) {
        AuditFilterParams filters = AuditFilterParams.from(request);
        String cursorText = QueryParams.param(request, "cursor");
        AuditCursor cursor = cursorText == null ? null : AuditCursor.decode(cursorText);
        return new AuditLogQuery(filters.correlationId(), filters.agentId(), filters.tool(), filters.decision(),
                filters.from(), filters.to(), QueryParams.limit(QueryParams.param(request, "limit"), DEFAULT_LIMIT, MAX_LIMIT), cursor);
    }
}
