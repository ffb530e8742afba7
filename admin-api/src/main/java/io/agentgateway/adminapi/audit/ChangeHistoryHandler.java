package io.agentgateway.adminapi.audit;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.adminapi.shared.ItemsResponse;
import io.agentgateway.adminapi.shared.QueryParams;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.JsonResponses;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET /admin/v1/workspaces/{workspaceId}/changes[?area=policy&area=member&limit=50]} (admin or owner): who changed
 * what in the workspace's administration, newest first ({@link ChangeHistory}).
 */
@Component
public class ChangeHistoryHandler {
    static final String AREA_MESSAGE = "area must be one of: " + String.join(", ", new TreeSet<>(ChangeHistory.AREAS));

    private final AdminAccess access;
    private final ChangeHistory history;

    ChangeHistoryHandler(AdminAccess access, ChangeHistory history) {
        this.access = access;
        this.history = history;
    }

    public Mono<ServerResponse> list(ServerRequest request) {
        return access.admin(request).flatMap(caller -> {
            Set<String> areas = new LinkedHashSet<>(request.queryParams().getOrDefault("area", List.of()));
            if (!ChangeHistory.AREAS.containsAll(areas)) {
                throw ApiException.badRequest(AREA_MESSAGE);
            }
            int limit = QueryParams.limit(QueryParams.param(request, "limit"), 50, 500);
            return history.recent(caller.workspaceId(), areas, limit);
        }).flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }
}
