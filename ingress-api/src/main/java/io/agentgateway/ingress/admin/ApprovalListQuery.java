package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.web.ApiException;
import java.util.List;
import org.springframework.web.reactive.function.server.ServerRequest;

/** The filters of GET .../approvals: status (one of {@link #STATUSES}) and limit (1..500, default 100). */
record ApprovalListQuery(String status, int limit) {
    static final List<String> STATUSES =
            List.of("pending", "approved", "rejected", "expired", "executing", "executed", "failed");
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 500;
    static final String STATUS_MESSAGE = "status must be one of: " + String.join(", ", STATUSES);
    static final String LIMIT_MESSAGE = "limit must be an integer between 1 and " + MAX_LIMIT;

    static ApprovalListQuery from(ServerRequest request) {
        String status = param(request, "status");
        if (status != null && !STATUSES.contains(status)) {
            throw ApiException.badRequest(STATUS_MESSAGE);
        }
        return new ApprovalListQuery(status, limit(param(request, "limit")));
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

    /** A query parameter; an empty value counts as absent. */
    private static String param(ServerRequest request, String name) {
        return request.queryParam(name).filter(value -> !value.isEmpty()).orElse(null);
    }
}
