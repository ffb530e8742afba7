package io.agentgateway.ingress.admin;

import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.backtest.BacktestRequest;
import io.agentgateway.backtest.BacktestTable;
import io.agentgateway.backtest.Backtester;
import io.agentgateway.backtest.EventLogTimeoutException;
import io.agentgateway.backtest.EventLogUnavailableException;
import io.agentgateway.decision.condition.ConditionEnvironment;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.CorrelationIds;
import io.agentgateway.ingress.web.IngressJson;
import io.agentgateway.ingress.web.JsonBodyReader;
import io.agentgateway.ingress.web.JsonResponses;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * POST /admin/v1/workspaces/{workspaceId}/backtests: replays the workspace's recorded evaluations
 * under a candidate policy set (admin or owner). Answers the report as JSON, or as a table when the
 * request prefers {@code text/plain}. The read of the log runs off the event loop, bounded in time
 * and in how many run at once; errors stay JSON.
 */
@Component
public class BacktestHandler {
    static final String UNAVAILABLE = "Event log unavailable";
    static final String TIMED_OUT = "Timed out reading the event log";
    static final String BUSY = "Another back-test is running; try again later";
    private static final Logger log = LoggerFactory.getLogger(BacktestHandler.class);
    private static final MediaType TEXT = new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);

    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final Backtester backtester;
    private final Semaphore running;
    private final Clock clock;
    private final ConditionEnvironment conditions;

    BacktestHandler(AdminAccess access, JsonBodyReader bodies, Backtester backtester, BacktestProperties properties,
                    ConditionEnvironment conditions) {
        this.conditions = conditions;
        this.access = access;
        this.bodies = bodies;
        this.backtester = backtester;
        this.running = new Semaphore(properties.maxConcurrent());
        this.clock = Clock.systemUTC();
    }

    public Mono<ServerResponse> run(ServerRequest request) {
        return access.admin(request).flatMap(admin -> bodies.readObject(request)
                .map(body -> BacktestBodies.parse(body, admin.workspaceId(), clock, conditions))
                .flatMap(backtest -> Blocking.call(() -> runLimited(backtest))))
                .onErrorMap(EventLogUnavailableException.class, e -> failure(request, HttpStatus.SERVICE_UNAVAILABLE, UNAVAILABLE, e))
                .onErrorMap(EventLogTimeoutException.class, e -> failure(request, HttpStatus.GATEWAY_TIMEOUT, TIMED_OUT, e))
                .flatMap(report -> prefersText(request) ? text(report) : json(report));
    }

    /**
     * Takes a slot on the thread that does the work and gives it back there: a request cancelled before
     * its work started holds nothing, and one whose client went away holds its slot until the read ends.
     */
    private BacktestReport runLimited(BacktestRequest backtest) {
        if (!running.tryAcquire()) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, BUSY);
        }
        try {
            return backtester.run(backtest);
        } finally {
            running.release();
        }
    }

    private static ApiException failure(ServerRequest request, HttpStatus status, String error, RuntimeException cause) {
        log.warn("[{}] back-test failed with {}: {}", CorrelationIds.of(request.exchange()), status.value(), cause.getMessage());
        return new ApiException(status, error);
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
