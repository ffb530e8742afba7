package io.agentgateway.adminapi.approvals;

import io.agentgateway.adminapi.shared.QueryParams;
import io.agentgateway.httpedge.web.ApiException;
import java.util.List;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The filters of GET .../approvals: status (one of {@link #STATUSES}) and limit (1..500, default 100).
 *
 * @param status the status a reader sees (null: every status)
 */
public record ApprovalListQuery(String status, int limit) {
    static final List<String> STATUSES =
            List.of("pending", "approved", "rejected", "expired", "executing", "executed", "failed", "cancelled",
                    "withdrawn");
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 500;
    static final String STATUS_MESSAGE = "status must be one of: " + String.join(", ", STATUSES);
    static final String LIMIT_MESSAGE = QueryParams.limitMessage(MAX_LIMIT);

    public static ApprovalListQuery from(ServerRequest request) {
        String status = QueryParams.param(request, "status");
        if (status != null && !STATUSES.contains(status)) {
            throw ApiException.badRequest(STATUS_MESSAGE);
        }
        return new ApprovalListQuery(status, QueryParams.limit(QueryParams.param(request, "limit"), DEFAULT_LIMIT, MAX_LIMIT));
    }
}
