package io.agentgateway.agentapi.evaluate;

import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.actiongate.callview.CallViews;
import io.agentgateway.actiongate.ActionGate;
import io.agentgateway.actiongate.ActionIntent;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.IdempotencyKeys;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import java.util.Optional;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * POST /functions/v1/evaluate-action (spec 4.1). Order of checks: a well-formed
 * {@code Authorization: Bearer agk_...} header (401 at once, before the body is read), then the
 * body (415, 413, 400 in the documented field order), then the decision stream, which alone decides
 * whether the key exists, is unexpired, unrevoked and has the {@code evaluate} scope (401) and what
 * the decision is. No database access on this path.
 */
@Component
public class EvaluateActionHandler {
    public static final String PATH = "/functions/v1/evaluate-action";
    static final String AGENT_HEADER = "X-Agent-Id";

    private final ActionGate gate;
    private final JsonBodyReader bodies;
    private final EvaluateActionMetrics metrics;
    private final CallViews views;

    EvaluateActionHandler(ActionGate gate, JsonBodyReader bodies, EvaluateActionMetrics metrics, CallViews views) {
        this.gate = gate;
        this.bodies = bodies;
        this.metrics = metrics;
        this.views = views;
    }

    public Mono<ServerResponse> evaluate(ServerRequest request) {
        long start = System.nanoTime();
        String correlationId = CorrelationIds.of(request);
        return Mono.defer(() -> {
                    ApiKeyCredential key = ApiKeyCredential.from(request);
                    String agentHeader = request.headers().firstHeader(AGENT_HEADER);
                    Optional<String> idempotencyKey = IdempotencyKeys.of(request);
                    return bodies.readObject(request)
                            .map(body -> EvaluateActionRequests.parse(body, agentHeader))
                            // should it be held, reviewers see the payload the caller will act with (redacted, bounded)
                            .map(command -> command.withCallView(views.payload(command.payload())))
                            .flatMap(command -> gate.decide(ActionIntent.agent(key, agentHeader, correlationId)
                                    .idempotencyKey(idempotencyKey, null)
                                    .evaluate(command)
                                    .build()));
                })
                .map(decided -> EvaluationResponse.of(decided.outcome(), correlationId))
                .doOnNext(response -> metrics.record(response.decision().wire(), start))
                .doOnError(failure -> metrics.record(EvaluateActionMetrics.outcomeOf(failure), start))
                .flatMap(JsonResponses::ok);
    }
}
