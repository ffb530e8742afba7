package io.agentgateway.adminapi.backtest;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.backtest.BacktestTable;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * POST /admin/v1/workspaces/{workspaceId}/backtests: replays the workspace's recorded evaluations
 * under a candidate policy set (admin or owner; {@link Backtests}). Answers the report as JSON, or as a table when the
 * request prefers {@code text/plain}; errors stay JSON.
 */
@Component
public class BacktestHandler {
    private static final MediaType TEXT = new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);

    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final Backtests backtests;

    BacktestHandler(AdminAccess access, JsonBodyReader bodies, Backtests backtests) {
        this.access = access;
        this.bodies = bodies;
        this.backtests = backtests;
    }

    public Mono<ServerResponse> run(ServerRequest request) {
        return access.admin(request).flatMap(admin -> bodies.readObject(request)
                        .flatMap(body -> backtests.run(admin.workspaceId(), body, CorrelationIds.of(request))))
                .flatMap(report -> prefersText(request) ? text(report) : json(report));
    }

    private static Mono<ServerResponse> json(BacktestReport report) {
        ObjectNode body = IngressJson.RESPONSES.createObjectNode();
        body.put("ok", true);
        body.setAll((ObjectNode) IngressJson.RESPONSES.valueToTree(report));
        return JsonResponses.ok(body);
    }

    private static Mono<ServerResponse> text(BacktestReport report) {
        return ServerResponse.ok().contentType(TEXT).bodyValue(BacktestTable.render(report));
    }

    /** The first of text/plain or JSON the Accept header names (by quality, then order); JSON otherwise. */
    static boolean prefersText(ServerRequest request) {
        List<MediaType> accepted = request.headers().accept().stream()
                .sorted(Comparator.comparingDouble(MediaType::getQualityValue).reversed())
                .toList();
        for (MediaType type : accepted) {
            if (type.getQualityValue() <= 0 || type.isWildcardType() || type.isWildcardSubtype()) {
                continue;
            }
            if (MediaType.TEXT_PLAIN.equalsTypeAndSubtype(type)) {
                return true;
            }
            if (MediaType.APPLICATION_JSON.equalsTypeAndSubtype(type)) {
                return false;
            }
        }
        return false;
    }
}
