package io.agentgateway.adminapi.audit;

import io.agentgateway.adminapi.shared.QueryParams;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.time.Instant;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The filters of GET .../audit-log: correlationId (uuid), agentId, tool, decision, action, risk, source, undelivered,
 * from (inclusive), to (exclusive), limit (1..500, default 50) and cursor (from the previous page's nextCursor).
 * Public for the console's audit explorer, which pages the same rows with the same filters.
 */
public record AuditLogQuery(String correlationId, String agentId, Tool tool, Decision decision, Instant from, Instant to,
                            int limit, AuditCursor cursor, String action, RiskLevel riskLevel, ActionSource source,
                            Boolean undelivered) {
    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 500;
    static final String LIMIT_MESSAGE = QueryParams.limitMessage(MAX_LIMIT);

    /**
     * The query of a request's parameters (an empty value counts as absent).
     *
     * @throws io.agentgateway.httpedge.web.ApiException 400 with the admin API's text for a bad parameter
     */
    public static AuditLogQuery from(ServerRequest request) {
        AuditFilterParams filters = AuditFilterParams.from(request);
        String cursorText = QueryParams.param(request, "cursor");
        AuditCursor cursor = cursorText == null ? null : AuditCursor.decode(cursorText);
        return new AuditLogQuery(filters.correlationId(), filters.agentId(), filters.tool(), filters.decision(),
                filters.from(), filters.to(), QueryParams.limit(QueryParams.param(request, "limit"), DEFAULT_LIMIT, MAX_LIMIT), cursor,
                filters.action(), filters.riskLevel(), filters.source(), filters.undelivered());
    }
}
