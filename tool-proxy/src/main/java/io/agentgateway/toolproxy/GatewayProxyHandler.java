package io.agentgateway.toolproxy;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.actiongate.callview.CallViews;
import io.agentgateway.actiongate.callview.ConditionArguments;
import io.agentgateway.httpedge.edge.ProxyRequestProperties;
import io.agentgateway.actiongate.heldcall.HeldCallSeals;
import io.agentgateway.actiongate.heldcall.UpstreamTarget;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.IdempotencyKeys;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.CallView;
import io.agentgateway.schemas.call.HeldHttpRequest;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ANY /functions/v1/gateway-proxy/<tool>/<upstream-path>} (spec 4.5). Order of checks: the
 * tool (404), a well-formed API key in a form the tool's own SDK sends ({@link ProxyKeySchemes}; 401, before
 * the body is read), the method (405 but for the seven a
 * REST API uses; 400 for a method override), the canonical upstream path and query (400, see
 * {@link UpstreamPath}), the body (413; 400 for a {@code _method} form field), the classification by
 * the spec's tables (400 for a malformed GraphQL request), the workspace's
 * connection to the tool as the decision stream holds it ({@link ProxyTargets}; 409: none, no token, no
 * base URL, answered only after the stream confirmed the connection and the key's proxy scope, else 401)
 * and, for chat, docs and internal_api, the classification by its rules, then one EvaluateAction through
 * the decision stream (source and scope {@code proxy}, the request sealed as the held call with its
 * canonical path, the connection's version), which checks the key in log order (401) and decides only on
 * the current connection. Allowed: forwarded with exactly that connection and streamed back. Blocked: 403, nothing
 * sent. Held: {@code gateway.proxy.held-status} (403) with the approval id and status URL; the approval executor
 * sends it once if a reviewer approves. Both answers are in the tool's error dialect ({@link ProxyDialect}).
 */
@Component
public class GatewayProxyHandler {
    public static final String PREFIX = ProxyRequestProperties.PATH_PREFIX;
    public static final String ROUTE = PREFIX + "**";
    static final String AGENT_HEADER = "X-Agent-Id";
    static final String TOOL_MESSAGE = "The proxy serves the tools " + ToolProfiles.listed(ToolProfile::proxied, "and");

    private final ProxyTargets targets;
    private final HeldCallSeals seals;
    private final UpstreamForwarder forwarder;
    private final ProxyProperties properties;
    private final int maxBodyBytes;
    private final PublicBaseUrl gatewayBase;
    private final CallViews views;
    private final ConditionLookups lookups;
    private final ConditionArguments conditionArguments;

    GatewayProxyHandler(ProxyTargets targets, HeldCallSeals seals, UpstreamForwarder forwarder, ProxyProperties properties,
                        ProxyRequestProperties requests, PublicBaseUrl gatewayBase, CallViews views, ConditionLookups lookups,
                        ConditionArguments conditionArguments) {
        this.lookups = lookups;
        this.conditionArguments = conditionArguments;
        this.gatewayBase = gatewayBase;
        this.targets = targets;
        this.seals = seals;
        this.forwarder = forwarder;
        this.properties = properties;
        this.maxBodyBytes = requests.maxBodyBytes();
        this.views = views;
    }

    public Mono<ServerResponse> proxy(ServerRequest request) {
        String correlationId = CorrelationIds.of(request);
        return Mono.defer(() -> {
            String raw = request.uri().getRawPath();
            String rest = raw.length() > PREFIX.length() ? raw.substring(PREFIX.length()) : "";
            int slash = rest.indexOf('/');
            Tool tool = proxiedTool(slash < 0 ? rest : rest.substring(0, slash));
            // the key in the form the tool's own SDK sends it (Bearer, token or the bare key): never forwarded
            ApiKeyCredential key = ApiKeyCredential.from(request, ProxyKeySchemes.of(tool));
            // one reading of the request: its own method (405, 400 for an override) and its canonical target (400)
            HttpMethod method = ProxyMethods.require(request.method(), request.headers().asHttpHeaders());
            UpstreamPath path = UpstreamPath.parse(slash < 0 ? "/" : rest.substring(slash), request.uri().getRawQuery());
            String agentId = request.headers().firstHeader(AGENT_HEADER);
            Optional<String> idempotencyKey = IdempotencyKeys.of(request);
            Map<String, List<String>> headers = ProxyHeaders.upstreamRequest(request.headers().asHttpHeaders());
            return ProxyRequestBody.read(request, maxBodyBytes).flatMap(body -> {
                ProxyRequestBody.refuseMethodField(request.headers().asHttpHeaders(), body);
                // the fixed tables first: a malformed request is a 400 before the key is looked up
                Optional<ProxyAction> fixed = ProxyClassifier.byFixedTables(tool, method, path, body);
                boolean graphQl = ProxyClassifier.isGraphQl(tool, path);
                // facts a policy condition needs that the request does not carry (a merge's base branch, an issue's labels)
                Mono<ConditionLookups.Found> found = fixed.map(a -> lookups.lookUp(key.workspaceId(), tool, a, path, body,
                                Actor.apiKey(key.keyHash(), agentId), correlationId))
                        .orElse(Mono.just(ConditionLookups.Found.NOTHING));
                // the connection is the one the decision stream holds (the evaluation names its version); the
                // stream checks the key and its proxy scope in log order, also before any 409 (ProxyTargets)
                return found.flatMap(facts -> targets.decide(key, tool, agentId, correlationId, idempotencyKey, proxyTarget -> {
                            ProxyAction action = fixed.orElseGet(() -> RuleActions.classify(proxyTarget.rules(), method, path));
                            HeldHttpRequest held = new HeldHttpRequest(method.name(), path.canonical(), path.query(), headers,
                                    body.length == 0 ? null : Base64.getEncoder().encodeToString(body));
                            // what reviewers are shown: made from exactly what is sealed, redacted and bounded
                            CallView view = views.http(tool, action.action(), held.method(), held.path(), held.query(),
                                    graphQl, headers, body);
                            return evaluation(tool, action, agentId, view, seals.seal(tool, action.action(), held))
                                    .withConditionInputs(ProxyConditionFacts.inputs(conditionArguments, tool, method, path, body,
                                            graphQl, facts));
                        }))
                        .flatMap(decided -> {
                            UpstreamTarget target = decided.target().upstream();
                            EvaluationOutcome outcome = decided.decision().outcome();
                            return switch (outcome.decision()) {
                                case ALLOW -> forwarder.forward(tool.wire(), request.uri(), target, method, path, headers, body,
                                        outcome.auditLogId());
                                case BLOCK -> decisionAnswer(HttpStatus.FORBIDDEN, outcome, ProxyDecisionBodies.blocked(
                                        ProxyDialect.of(tool), outcome, correlationId, properties.documentationUrl()));
                                case REQUIRE_APPROVAL -> decisionAnswer(HttpStatus.valueOf(properties.heldStatus()), outcome,
                                        ProxyDecisionBodies.held(ProxyDialect.of(tool), outcome, correlationId,
                                                gatewayBase.of(request), properties.documentationUrl()));
                            };
                        });
            });
        });
    }

    /** A decision the gateway answers itself, with the audit entry's id in the header a forwarded answer has too. */
    private static Mono<ServerResponse> decisionAnswer(HttpStatus status, EvaluationOutcome outcome, ObjectNode body) {
        return ServerResponse.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .headers(headers -> {
                    if (outcome.auditLogId() != null) {
                        headers.set(UpstreamForwarder.AUDIT_HEADER, outcome.auditLogId());
                    }
                })
                .bodyValue(IngressJson.RESPONSES.writeValueAsBytes(body));
    }

    private static EvaluateAction evaluation(Tool tool, ProxyAction action, String agentId, CallView view,
                                             SealedHeldCall held) {
        // what the audit entry shows of the call: its view (method, path, query, the GraphQL document and
        // variables or a body excerpt; redacted, never the headers), cut again to the audit excerpt's limit
        ObjectNode payload = IngressJson.REQUESTS.valueToTree(view);
        if (!payload.has("query")) {
            payload.putNull("query");
        }
        return EvaluateAction.builder(tool, action.action(), action.risk())
                .from(ActionSource.PROXY, Scope.PROXY)
                .agent(agentId, null)
                .resource(action.resourceType(), action.resourceId())
                .payload(payload)
                .heldCall(held, view)
                .build();
    }

    private static Tool proxiedTool(String rawSegment) {
        Tool tool = Tool.parse(rawSegment).orElse(null);
        if (tool == null || !ToolProfiles.of(tool).proxied()) {
            throw ApiException.notFound(TOOL_MESSAGE);
        }
        return tool;
    }
}
