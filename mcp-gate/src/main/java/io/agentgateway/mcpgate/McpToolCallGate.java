package io.agentgateway.mcpgate;

import io.agentgateway.mcpgate.config.McpGateProperties;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.session.McpCaller;
import io.agentgateway.mcpgate.session.McpRevisions.Tasks;
import io.agentgateway.mcpgate.task.McpTasks;
import io.agentgateway.mcpgate.upstream.McpToolListCache;
import io.agentgateway.mcpgate.upstream.McpUpstreamCalls;
import io.agentgateway.mcpgate.upstream.McpUpstreams;
import io.agentgateway.actiongate.callview.CallViews;
import io.agentgateway.actiongate.callview.ConditionArguments;
import io.agentgateway.actiongate.callview.Redaction;
import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
import io.agentgateway.actiongate.ActionGate;
import io.agentgateway.actiongate.ActionIntent;
import io.agentgateway.actiongate.ConnectionAccess;
import io.agentgateway.actiongate.GateDecision;
import io.agentgateway.gatewayclient.DecisionServiceUnavailableException;
import io.agentgateway.actiongate.heldcall.HeldCallSeals;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.BodyStringLimits;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.call.HeldMcpRequest;
import io.agentgateway.schemas.call.HeldMcpToolCall;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The MCP methods that are actions of their own ({@code tools/call}, {@code tools/list}, {@code resources/read},
 * {@code prompts/get}): each is decided through the {@link ActionGate} (tool {@code mcp}, source and scope {@code mcp},
 * the version of the mcp connection the view holds), and only an allowed one reaches the upstream, with the connection
 * the decision was made on. A call or request is sealed as the held call, so that an approval runs exactly it, once;
 * the audit entry shows its arguments redacted and cut to {@code gateway.mcp.audit-payload-bytes}
 * ({@link McpAuditPayload}). How a decision is said in MCP's terms: {@link McpDecisionAnswers}.
 */
@Component
class McpToolCallGate {
    static final String RISK_PARAM = "_risk";
    private static final String CONNECTION_KEPT_CHANGING = "the tool connection changed again while the request was being decided";

    private final ActionGate gate;
    private final ConnectionAccess access;
    private final HeldCallSeals seals;
    private final McpUpstreamCalls upstream;
    private final int auditPayloadBytes;
    private final CallViews views;
    private final McpToolListCache toolLists;
    private final McpKeys keys;
    private final ConditionArguments conditionArguments;
    private final McpTasks tasks;

    McpToolCallGate(ActionGate gate, ConnectionAccess access, HeldCallSeals seals, McpUpstreamCalls upstream,
                    McpGateProperties properties, CallViews views, McpToolListCache toolLists, McpKeys keys,
                    ConditionArguments conditionArguments, McpTasks tasks) {
        this.tasks = tasks;
        this.gate = gate;
        this.access = access;
        this.seals = seals;
        this.upstream = upstream;
        this.auditPayloadBytes = properties.auditPayloadBytes();
        this.views = views;
        this.toolLists = toolLists;
        this.keys = keys;
        this.conditionArguments = conditionArguments;
    }

    /** {@code tools/call} as spec 4.3 answers it (no task). */
    Mono<JsonNode> call(McpCaller caller, ObjectNode params, String rpcId) {
        return call(caller, params, rpcId, Tasks.NONE);
    }

    /**
     * {@code tools/call} (spec 4.3): risk from the tool name or {@code _risk}; allowed → the upstream's result with the
     * evaluation in {@code _meta.service}, blocked → -32001, held → the spec's text item naming the approval. Asked
     * as a task ({@code asTask}, {@link McpTasks}): held → a task in {@code working}; allowed → 2025-11-25 a task that
     * has already ended (the revision answers a task-augmented request with a task), 2026-07-28 the result as it is.
     *
     * @param rpcId the JSON-RPC id: with an Idempotency-Key, the calls of one batch keep ids of their own
     */
    Mono<JsonNode> call(McpCaller caller, ObjectNode params, String rpcId, Tasks asTask) {
        return Mono.defer(() -> {
            ToolCall call = ToolCall.parse(params);
            // the audit entry and the reviewers see the arguments with credentials taken out
            ObjectNode redacted = (ObjectNode) new Redaction().json(call.arguments());
            EvaluateAction command = EvaluateAction.builder(Tool.MCP, call.name(), call.risk())
                    .from(ActionSource.MCP, Scope.MCP)
                    .agent(caller.agentId(), null)
                    .payload(McpAuditPayload.of(redacted, auditPayloadBytes))
                    .riskOverriddenByCaller(call.riskOverridden())
                    .heldCall(sealed(call.name(), new HeldMcpToolCall(call.name(), call.arguments())),
                            views.mcp(call.name(), call.arguments()))
                    // what policy conditions read: the whole arguments the upstream gets (credentials taken out)
                    .conditionInputs(conditionArguments.inputs(call.arguments(), null, null, null))
                    .build();
            return usableConnection(caller)
                    .flatMap(known -> gate.decide(intent(caller, rpcId).onConnection(Tool.MCP, known).evaluate(command).build()))
                    .flatMap(decided -> {
                        EvaluationOutcome outcome = decided.outcome();
                        return switch (outcome.decision()) {
                            case ALLOW -> asTask == Tasks.UTILITY
                                    ? allowed(caller, call, outcome, decided.connection())
                                            .flatMap(result -> tasks.allowedRan(caller, outcome, (ObjectNode) result))
                                    : allowed(caller, call, outcome, decided.connection());
                            case BLOCK -> Mono.error(McpDecisionAnswers.blocked(caller, outcome));
                            case REQUIRE_APPROVAL -> asTask == Tasks.NONE
                                    ? Mono.just(McpDecisionAnswers.heldToolCall(caller, outcome))
                                    : tasks.held(caller, outcome, asTask);
                        };
                    });
        });
    }

    /**
     * {@code tools/list}: an action of its own like {@link #decided}, whose evaluation also names the tools of the
     * upstream's page ({@link McpListedTools}); the decision says which of them a {@code tools/call} would be blocked
     * for whatever its arguments, and the answer offers only the others. The page is the upstream's
     * ({@link McpToolListCache}; fetched after a key check when it is not cached); what is offered is decided for
     * every list, so a policy change shows on the next one. A {@code stale} answer means the current connection's
     * server lists other tools: its page is taken and decided once more.
     */
    Mono<JsonNode> list(McpCaller caller, ObjectNode params, String rpcId) {
        return Mono.defer(() -> {
            ObjectNode payload = params == null ? IngressJson.RESPONSES.createObjectNode() : params.deepCopy();
            EvaluateAction command = EvaluateAction.builder(Tool.MCP, "tools/list", RiskLevel.LOW)
                    .from(ActionSource.MCP, Scope.MCP)
                    .agent(caller.agentId(), null)
                    .payload(McpAuditPayload.of(payload, auditPayloadBytes))
                    .build();
            return listDecided(caller, params, command, rpcId, access.known(caller.key().workspaceId(), Tool.MCP), true);
        });
    }

    private Mono<JsonNode> listDecided(McpCaller caller, ObjectNode params, EvaluateAction command, String rpcId,
                                       Known known, boolean mayRetry) {
        return page(caller, params, known).flatMap(listed -> {
            List<String> names = McpListedTools.names(listed.page());
            ActionIntent intent = intent(caller, rpcId)
                    .onConnection(Tool.MCP, listed.from())
                    // the names are this connection's server's: another connection's list is asked again (below)
                    .evaluate(connection -> connection.version() == listed.from().version()
                            ? Optional.of(command.withListedTools(names))
                            : Optional.empty())
                    .build();
            return gate.decide(intent).flatMap(decided -> {
                if (decided.withdrawn()) {
                    if (!mayRetry) {
                        throw new DecisionServiceUnavailableException(CONNECTION_KEPT_CHANGING);
                    }
                    return listDecided(caller, params, command, rpcId, decided.connection(), false);
                }
                return offered(caller, listed.page(), names, decided);
            });
        });
    }

    /** The page without the tools the decision hides, or the list's own refusal. */
    private static Mono<JsonNode> offered(McpCaller caller, ObjectNode page, List<String> names, GateDecision decided) {
        EvaluationOutcome outcome = decided.outcome();
        return switch (outcome.decision()) {
            case ALLOW -> {
                if (outcome.hiddenTools() == null) {
                    // a decision service that did not decide the names (an older one): nothing undecided is offered
                    throw new DecisionServiceUnavailableException("the decision service did not decide which listed tools may be offered");
                }
                yield Mono.just(McpListedTools.offered(page, names, outcome.hiddenTools()));
            }
            case BLOCK -> Mono.error(McpDecisionAnswers.blocked(caller, outcome));
            case REQUIRE_APPROVAL -> Mono.error(McpDecisionAnswers.listNeedsApproval(caller, outcome));
        };
    }

    /** An upstream page and the connection whose server listed it. */
    private record ListedPage(Known from, ObjectNode page) {}

    /**
     * The page from the cache when it holds it for this connection; else the stream confirms key and connection first
     * ({@code check_access}: no upstream is contacted for a key nobody checked, nor with a connection the view
     * no longer has), and the confirmed connection's server is asked.
     */
    private Mono<ListedPage> page(McpCaller caller, ObjectNode params, Known known) {
        UUID workspaceId = caller.key().workspaceId();
        if (known.connection() != null && known.connection().mcpServerUrl() != null) {
            Optional<ObjectNode> cached = toolLists.cached(McpUpstreams.of(workspaceId, known), params);
            if (cached.isPresent()) {
                return Mono.just(new ListedPage(known, cached.get()));
            }
        }
        return keys.check(caller.key(), caller.agentId(), caller.correlationId()).flatMap(confirmed ->
                Mono.fromCallable(() -> McpUpstreams.of(workspaceId, confirmed))
                        .flatMap(server -> toolLists.fetch(server, params))
                        .map(page -> new ListedPage(confirmed, page)));
    }

    /**
     * {@code resources/read} and {@code prompts/get}: actions of their own, low risk (action the method; the resource
     * type {@code resource} or {@code prompt} and the resource id the URI or the prompt's name: policies match them
     * like any action), so the kill switch, {@code pause_tool mcp} and policies stop them in log order as they stop
     * tools/call; then the relay with the connection the decision was made on. The request is sealed as the held call
     * ({@link HeldMcpRequest}): a decision that needs an approval is answered with -32001 naming the approval request,
     * and once approved the executor runs exactly that request ({@code McpHeldRequestRunner}).
     */
    Mono<JsonNode> decided(McpCaller caller, String method, ObjectNode params, String rpcId) {
        return Mono.defer(() -> {
            UUID workspaceId = caller.key().workspaceId();
            boolean resource = "resources/read".equals(method);
            String idField = resource ? "uri" : "name";
            JsonNode subject = params == null ? null : params.get(idField);
            if (subject == null || !subject.isString() || subject.asString().isBlank()
                    || subject.asString().length() > BodyStringLimits.IDENTIFIER_MAX_CHARS) {
                throw JsonRpcError.invalidParams("params." + idField + " must be a non-empty string of at most "
                        + BodyStringLimits.IDENTIFIER_MAX_CHARS + " characters");
            }
            ObjectNode payload = params == null ? IngressJson.RESPONSES.createObjectNode() : params.deepCopy();
            // sealed as the held call: an approval runs exactly this method with exactly these params, once
            EvaluateAction command = EvaluateAction.builder(Tool.MCP, method, RiskLevel.LOW)
                    .from(ActionSource.MCP, Scope.MCP)
                    .agent(caller.agentId(), null)
                    .resource(resource ? "resource" : "prompt", subject.asString())
                    .payload(McpAuditPayload.of(payload, auditPayloadBytes))
                    .heldCall(sealed(method, new HeldMcpRequest(method, params)), views.mcpRequest(method, params))
                    // conditions read the request's params as args (uri or name, and a prompt's arguments)
                    .conditionInputs(conditionArguments.inputs(params, null, null, null))
                    .build();
            // reachable, as for tools/call: no approval is opened for a read that could never run
            return usableConnection(caller)
                    .flatMap(known -> gate.decide(intent(caller, rpcId).onConnection(Tool.MCP, known).evaluate(command).build()))
                    .flatMap(decided -> {
                        EvaluationOutcome outcome = decided.outcome();
                        return switch (outcome.decision()) {
                            case ALLOW -> Mono.fromCallable(() -> McpUpstreams.of(workspaceId, decided.connection()))
                                    .flatMap(server -> upstream.relay(server, method, params, caller.client()))
                                    .onErrorMap(failure -> McpDecisionAnswers.upstreamFailed(
                                            McpUpstreamCalls.asRpcError(method, failure), outcome, caller))
                                    .<JsonNode>map(result -> result);
                            case BLOCK -> Mono.error(McpDecisionAnswers.blocked(caller, outcome));
                            case REQUIRE_APPROVAL -> Mono.error(McpDecisionAnswers.heldRequest(caller, method, outcome));
                        };
                    });
        });
    }

    /** The caller's intent; with an Idempotency-Key, each JSON-RPC id of a batch gets a command id of its own. */
    private static ActionIntent.Builder intent(McpCaller caller, String rpcId) {
        return ActionIntent.agent(caller.key(), caller.agentId(), caller.correlationId())
                .idempotencyKey(Optional.ofNullable(caller.idempotencyKey()), "mcp:" + rpcId);
    }

    /**
     * The workspace's {@code mcp} connection to evaluate with, when it has one and its upstream can take the call:
     * else -32002 before anything is evaluated, so no approval is opened for a call that could never run. The fast path is the view's connection with a live session; else the
     * stream confirms key and connection first ({@code check_access}: the view may lag, and no upstream is
     * contacted for a key nobody checked), then the upstream is initialized.
     */
    private Mono<Known> usableConnection(McpCaller caller) {
        UUID workspaceId = caller.key().workspaceId();
        Known viewed = access.known(workspaceId, Tool.MCP);
        if (viewed.connection() != null && viewed.connection().mcpServerUrl() != null
                && upstream.isReady(McpUpstreams.of(workspaceId, viewed), caller.client())) {
            return Mono.just(viewed);
        }
        return keys.check(caller.key(), caller.agentId(), caller.correlationId()).flatMap(confirmed ->
                upstream.reachable(McpUpstreams.of(workspaceId, confirmed), caller.client()).thenReturn(confirmed));
    }

    private SealedHeldCall sealed(String action, HeldCall call) {
        try {
            return seals.seal(Tool.MCP, action, call);
        } catch (ApiException e) {
            // no secrets key: nothing may be held in clear, so nothing is evaluated either (fail closed)
            throw new JsonRpcError(JsonRpcError.INTERNAL_ERROR, e.getMessage());
        }
    }

    private Mono<JsonNode> allowed(McpCaller caller, ToolCall call, EvaluationOutcome outcome, Known connection) {
        return Mono.fromCallable(() -> McpUpstreams.of(caller.key().workspaceId(), connection))
                .flatMap(server -> upstream.callTool(server, call.name(), call.arguments(), call.progressToken(),
                        caller.notifications(), caller.client()))
                // every failure after the allow names the evaluation: the upstream's own errors, the transport's, and
                // anything the connection or the SDK raised before sending
                .onErrorMap(failure -> McpDecisionAnswers.upstreamFailed(McpUpstreamCalls.asRpcError("tools/call", failure),
                        outcome, caller))
                .map(result -> McpDecisionAnswers.allowed(result, caller, outcome));
    }

    /** The validated params of a tools/call, with {@code _risk} taken out of the arguments. */
    record ToolCall(String name, ObjectNode arguments, RiskLevel risk, boolean riskOverridden, JsonNode progressToken) {
        static final String RISK_MESSAGE = "arguments._risk must be one of: low, medium, high, critical";

        static ToolCall parse(ObjectNode params) {
            JsonNode name = params == null ? null : params.get("name");
            if (name == null || !name.isString() || name.asString().isBlank()) {
                throw JsonRpcError.invalidParams("params.name must be a non-empty string");
            }
            if (name.asString().length() > BodyStringLimits.IDENTIFIER_MAX_CHARS) {
                // the name is the action of the audit entry and of every notification about it
                throw JsonRpcError.invalidParams("params.name must be a string of at most " + BodyStringLimits.IDENTIFIER_MAX_CHARS + " characters");
            }
            JsonNode given = params.get("arguments");
            if (given != null && !given.isNull() && !given.isObject()) {
                throw JsonRpcError.invalidParams("params.arguments must be an object");
            }
            ObjectNode arguments = given instanceof ObjectNode object ? object.deepCopy()
                    : IngressJson.RESPONSES.createObjectNode();
            JsonNode override = arguments.remove(RISK_PARAM);
            JsonNode token = params.path("_meta").get("progressToken");
            JsonNode progressToken = token != null && (token.isString() || token.isIntegralNumber()) ? token : null;
            if (override == null) {
                return new ToolCall(name.asString(), arguments, McpToolRisk.of(name.asString()), false, progressToken);
            }
            RiskLevel level = override.isString() ? RiskLevel.parse(override.asString()).orElse(null) : null;
            if (level == null) {
                throw JsonRpcError.invalidParams(RISK_MESSAGE);
            }
            return new ToolCall(name.asString(), arguments, level, true, progressToken);
        }
    }
}
