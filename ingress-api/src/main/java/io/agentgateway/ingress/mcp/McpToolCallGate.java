package io.agentgateway.ingress.mcp;

import io.agentgateway.ingress.heldcall.HeldCallSeals;
import io.agentgateway.ingress.callview.CallViews;
import io.agentgateway.ingress.callview.ConditionArguments;
import io.agentgateway.ingress.callview.Redaction;
import io.agentgateway.ingress.connection.ConnectionAccess;
import io.agentgateway.ingress.connection.ToolConnectionView.Known;
import io.agentgateway.ingress.gateway.DecisionServiceUnavailableException;
import io.agentgateway.ingress.web.IdempotencyKeys;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.BodyStringLimits;
import io.agentgateway.ingress.web.ErrorMessages;
import io.agentgateway.ingress.web.IngressJson;
import io.agentgateway.ingress.web.ReplyErrors;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.HeldMcpRequest;
import io.agentgateway.schemas.call.HeldMcpToolCall;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.Reply;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tools/call} (spec 4.3): risk from the tool name or {@code _risk}, one EvaluateAction through
 * the decision stream (tool {@code mcp}, source {@code mcp}, scope {@code mcp}, the call sealed as
 * the held call, its arguments as the payload the audit entry shows: {@link McpAuditPayload}, the
 * version of the mcp connection the view holds), then the upstream call only when the decision allows
 * it, with the connection the decision was made on.
 */
@Component
class McpToolCallGate {
    static final String BLOCKED_MESSAGE = "Tool call blocked by policy";
    static final String RISK_PARAM = "_risk";
    private static final String CONNECTION_KEPT_CHANGING = "the tool connection changed again while the request was being decided";

    private final ConnectionAccess access;
    private final HeldCallSeals seals;
    private final McpUpstreamCalls upstream;
    private final int auditPayloadBytes;
    private final CallViews views;

    private final McpToolListCache toolLists;
    private final McpKeys keys;
    private final ConditionArguments conditionArguments;

    McpToolCallGate(ConnectionAccess access, HeldCallSeals seals, McpUpstreamCalls upstream, McpGateProperties properties,
                    CallViews views, McpToolListCache toolLists, McpKeys keys, ConditionArguments conditionArguments) {
        this.conditionArguments = conditionArguments;
        this.toolLists = toolLists;
        this.keys = keys;
        this.access = access;
        this.seals = seals;
        this.upstream = upstream;
        this.auditPayloadBytes = properties.auditPayloadBytes();
        this.views = views;
    }

    /** @param rpcId the JSON-RPC id: with an Idempotency-Key, the calls of one batch keep ids of their own */
    Mono<JsonNode> call(McpCaller caller, ObjectNode params, String rpcId) {
        return Mono.defer(() -> {
            ToolCall call = ToolCall.parse(params);
            // the audit entry and the reviewers see the arguments with credentials taken out (issue 16)
            ObjectNode redacted = (ObjectNode) new Redaction().json(call.arguments());
            EvaluateAction command = new EvaluateAction(Tool.MCP, call.name(), call.risk(), caller.agentId(), null,
                    null, null, McpAuditPayload.of(redacted, auditPayloadBytes), null, ActionSource.MCP, Scope.MCP, call.riskOverridden(),
                    sealed(call)).withCallView(views.mcp(call.name(), call.arguments()))
                    // what policy conditions read: the whole arguments the upstream gets (credentials taken out)
                    .withConditionInputs(conditionArguments.inputs(call.arguments(), null, null, null));
            UUID workspaceId = caller.key().workspaceId();
            // named with the version of the connection the view holds: decided only if it is the current one,
            // and an allowed call goes out with exactly that connection
            String commandId = caller.idempotencyKey() == null ? null : IdempotencyKeys.commandId(workspaceId.toString(),
                    caller.key().keyHash(), caller.idempotencyKey(), "mcp:" + rpcId);
            return usableConnection(caller, true).flatMap(known -> access.send(workspaceId, Tool.MCP, caller.correlationId(),
                            Actor.apiKey(caller.key().keyHash(), caller.agentId()), known, commandId,
                            connection -> Optional.of(command.withConnectionVersion(connection.version())))
                    .flatMap(sent -> {
                        Reply reply = sent.reply();
                        ReplyErrors.requireAgentOk(reply);
                        EvaluationOutcome outcome = reply.evaluation();
                        if (outcome == null || outcome.decision() == null) {
                            throw new IllegalStateException("OK reply without a decision to command " + reply.commandId());
                        }
                        return switch (outcome.decision()) {
                            case ALLOW -> allowed(caller, call, outcome, sent.connection());
                            case BLOCK -> Mono.error(blocked(caller, outcome));
                            case REQUIRE_APPROVAL -> Mono.just(held(caller, outcome));
                        };
                    }));
        });
    }

    /**
     * {@code tools/list} (issue 15): an action of its own like {@link #decided}, whose EvaluateAction also names the
     * tools of the upstream's page ({@link McpListedTools}); the decision says which of them a {@code tools/call}
     * would be blocked for whatever its arguments, and the answer offers only the others. The page is the upstream's
     * ({@link McpToolListCache}; fetched after a key check when it is not cached); what is offered is decided for
     * every list, so a policy change shows on the next one. A {@code stale} answer means the current connection's
     * server lists other tools: its page is taken and decided once more.
     */
    Mono<JsonNode> list(McpCaller caller, ObjectNode params, String rpcId) {
        return Mono.defer(() -> {
            UUID workspaceId = caller.key().workspaceId();
            ObjectNode payload = params == null ? IngressJson.RESPONSES.createObjectNode() : params.deepCopy();
            EvaluateAction command = new EvaluateAction(Tool.MCP, "tools/list", RiskLevel.LOW, caller.agentId(), null,
                    null, null, McpAuditPayload.of(payload, auditPayloadBytes), null, ActionSource.MCP, Scope.MCP, false, null);
            String commandId = caller.idempotencyKey() == null ? null : IdempotencyKeys.commandId(workspaceId.toString(),
                    caller.key().keyHash(), caller.idempotencyKey(), "mcp:" + rpcId);
            return listDecided(caller, params, command, commandId, access.known(workspaceId, Tool.MCP), true);
        });
    }

    private Mono<JsonNode> listDecided(McpCaller caller, ObjectNode params, EvaluateAction command, String commandId,
                                       Known known, boolean mayRetry) {
        UUID workspaceId = caller.key().workspaceId();
        return page(caller, params, known)
                .flatMap(listed -> {
                    ObjectNode page = listed.page();
                    Known listedFrom = listed.from();
                    List<String> names = McpListedTools.names(page);
                    return access.send(workspaceId, Tool.MCP, caller.correlationId(), Actor.apiKey(caller.key().keyHash(),
                                    caller.agentId()), listedFrom, commandId,
                            // the names are this connection's server's: another connection's list is asked again (below)
                            connection -> connection.version() == listedFrom.version()
                                    ? Optional.of(command.withConnectionVersion(connection.version()).withListedTools(names))
                                    : Optional.empty())
                            .flatMap(sent -> {
                                if (sent.reply() == null) {
                                    if (!mayRetry) {
                                        throw new DecisionServiceUnavailableException(CONNECTION_KEPT_CHANGING);
                                    }
                                    return listDecided(caller, params, command, commandId, sent.connection(), false);
                                }
                                return offered(caller, page, names, sent.reply());
                            });
                });
    }

    /** The page without the tools the decision hides, or the list's own refusal. */
    private static Mono<JsonNode> offered(McpCaller caller, ObjectNode page, List<String> names, Reply reply) {
        ReplyErrors.requireOk(reply, ErrorMessages.INVALID_API_KEY);
        EvaluationOutcome outcome = reply.evaluation();
        if (outcome == null || outcome.decision() == null) {
            throw new IllegalStateException("OK reply without a decision to command " + reply.commandId());
        }
        return switch (outcome.decision()) {
            case ALLOW -> {
                if (outcome.hiddenTools() == null) {
                    // a decision service that did not decide the names (an older one): nothing undecided is offered
                    throw new DecisionServiceUnavailableException("the decision service did not decide which listed tools may be offered");
                }
                yield Mono.just(McpListedTools.offered(page, names, outcome.hiddenTools()));
            }
            case BLOCK -> Mono.error(blocked(caller, outcome));
            case REQUIRE_APPROVAL -> Mono.error(needsApproval(caller, outcome));
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
     * {@code resources/read} and {@code prompts/get}: actions of their own (issue 15), low
     * risk, one EvaluateAction each (action the method; for a read the resource type {@code resource} or
     * {@code prompt} and the resource id the URI or the prompt's name: policies match them like any
     * action), so the kill switch, {@code pause_tool mcp} and policies stop them in log order as they stop
     * tools/call; then the relay with the connection the decision was made on. The request is sealed as the
     * held call ({@link HeldMcpRequest}): a decision that needs an approval is answered with -32001 naming the
     * approval request, and once approved the executor runs exactly that request ({@link McpHeldRequestRunner}).
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
            String resourceType = resource ? "resource" : "prompt";
            String resourceId = subject.asString();
            ObjectNode payload = params == null ? IngressJson.RESPONSES.createObjectNode() : params.deepCopy();
            // sealed as the held call: an approval runs exactly this method with exactly these params, once
            EvaluateAction command = new EvaluateAction(Tool.MCP, method, RiskLevel.LOW, caller.agentId(), null,
                    resourceType, resourceId, McpAuditPayload.of(payload, auditPayloadBytes), null,
                    ActionSource.MCP, Scope.MCP, false, sealed(method, new HeldMcpRequest(method, params)))
                    .withCallView(views.mcpRequest(method, params))
                    // conditions read the request's params as args (uri or name, and a prompt's arguments)
                    .withConditionInputs(conditionArguments.inputs(params, null, null, null));
            String commandId = caller.idempotencyKey() == null ? null : IdempotencyKeys.commandId(workspaceId.toString(),
                    caller.key().keyHash(), caller.idempotencyKey(), "mcp:" + rpcId);
            // reachable, as for tools/call: no approval is opened for a read that could never run
            return usableConnection(caller, true).flatMap(known -> access.send(workspaceId, Tool.MCP, caller.correlationId(),
                            Actor.apiKey(caller.key().keyHash(), caller.agentId()), known, commandId,
                            connection -> Optional.of(command.withConnectionVersion(connection.version()))))
                    .flatMap(sent -> {
                        Reply reply = sent.reply();
                        ReplyErrors.requireOk(reply, ErrorMessages.INVALID_API_KEY);
                        EvaluationOutcome outcome = reply.evaluation();
                        if (outcome == null || outcome.decision() == null) {
                            throw new IllegalStateException("OK reply without a decision to command " + reply.commandId());
                        }
                        return switch (outcome.decision()) {
                            case ALLOW -> Mono.fromCallable(() -> McpUpstreams.of(workspaceId, sent.connection()))
                                    .flatMap(server -> upstream.relay(server, method, params, caller.client()))
                                    .onErrorMap(JsonRpcError.class, failure -> withEvaluation(failure, outcome, caller))
                                    .<JsonNode>map(result -> result);
                            case BLOCK -> Mono.error(blocked(caller, outcome));
                            case REQUIRE_APPROVAL -> Mono.error(held(caller, method, outcome));
                        };
                    });
        });
    }

    /**
     * The workspace's {@code mcp} connection to evaluate with, when it has one (and, with {@code reachable},
     * an upstream that can take the call): else -32002 before anything is evaluated, so no approval is opened
     * for a call that could never run. The fast path is the view's connection with a live session; else the
     * stream confirms key and connection first ({@code check_access}: the view may lag, and no upstream is
     * contacted for a key nobody checked), then the upstream is initialized.
     */
    private Mono<Known> usableConnection(McpCaller caller, boolean reachable) {
        UUID workspaceId = caller.key().workspaceId();
        Known viewed = access.known(workspaceId, Tool.MCP);
        if (viewed.connection() != null && viewed.connection().mcpServerUrl() != null
                && (!reachable || upstream.isReady(McpUpstreams.of(workspaceId, viewed), caller.client()))) {
            return Mono.just(viewed);
        }
        return keys.check(caller.key(), caller.agentId(), caller.correlationId()).flatMap(confirmed -> {
            McpUpstream server = McpUpstreams.of(workspaceId, confirmed);
            return reachable ? upstream.reachable(server, caller.client()).thenReturn(confirmed) : Mono.just(confirmed);
        });
    }

    private static JsonRpcError needsApproval(McpCaller caller, EvaluationOutcome outcome) {
        ObjectNode data = IngressJson.RESPONSES.createObjectNode();
        data.put("status", "require_approval");
        data.put("approvalRequestId", outcome.approvalRequestId());
        data.put("reason", outcome.reason());
        data.put("auditLogId", outcome.auditLogId());
        data.put("correlationId", caller.correlationId());
        data.put("matchedPolicyId", outcome.matchedPolicyId());
        return new JsonRpcError(JsonRpcError.BLOCKED, "This request needs a human approval (approval request "
                + outcome.approvalRequestId() + "); ask again once it is approved", data);
    }

    /**
     * A held read or prompt: -32001 as for a request that needs an approval, naming the approval request; the
     * gateway runs it once it is approved and its result is the approval's execution result (status endpoint).
     */
    private static JsonRpcError held(McpCaller caller, String method, EvaluationOutcome outcome) {
        JsonRpcError error = needsApproval(caller, outcome);
        return new JsonRpcError(JsonRpcError.BLOCKED, "This " + method + " needs a human approval (approval request "
                + outcome.approvalRequestId() + "); once it is approved the gateway runs it, and its result is on GET "
                + "/functions/v1/mcp-gate/status/" + outcome.approvalRequestId() + " with the same API key", error.data());
    }

    private io.agentgateway.schemas.call.SealedHeldCall sealed(ToolCall call) {
        return sealed(call.name(), new HeldMcpToolCall(call.name(), call.arguments()));
    }

    private io.agentgateway.schemas.call.SealedHeldCall sealed(String action, io.agentgateway.schemas.call.HeldCall call) {
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
                .onErrorMap(JsonRpcError.class, failure -> withEvaluation(failure, outcome, caller))
                .map(result -> {
                    ObjectNode service = meta(result).putObject("service");
                    service.put("status", "allowed");
                    service.put("auditLogId", outcome.auditLogId());
                    service.put("correlationId", caller.correlationId());
                    service.put("matchedPolicyId", outcome.matchedPolicyId());
                    return result;
                });
    }

    /** An upstream failure after an allow: its data names the evaluation (the audit entry) and the correlation id. */
    static JsonRpcError withEvaluation(JsonRpcError failure, EvaluationOutcome outcome, McpCaller caller) {
        ObjectNode data = failure.data() instanceof ObjectNode given ? given.deepCopy()
                : IngressJson.RESPONSES.createObjectNode();
        if (failure.data() != null && !(failure.data() instanceof ObjectNode)) {
            data.set("upstream", failure.data());
        }
        data.put("auditLogId", outcome.auditLogId());
        data.put("correlationId", caller.correlationId());
        return failure.withData(data);
    }

    private static JsonRpcError blocked(McpCaller caller, EvaluationOutcome outcome) {
        ObjectNode data = IngressJson.RESPONSES.createObjectNode();
        data.put("reason", outcome.reason());
        data.put("auditLogId", outcome.auditLogId());
        data.put("correlationId", caller.correlationId());
        data.put("matchedPolicyId", outcome.matchedPolicyId());
        return new JsonRpcError(JsonRpcError.BLOCKED, BLOCKED_MESSAGE, data);
    }

    private static JsonNode held(McpCaller caller, EvaluationOutcome outcome) {
        ObjectNode result = IngressJson.RESPONSES.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text",
                "This tool call needs a human approval before it runs. Approval request "
                        + outcome.approvalRequestId() + " is pending; poll GET /functions/v1/mcp-gate/status/"
                        + outcome.approvalRequestId() + " with the same API key to see whether it was approved and,"
                        + " once executed, its result.");
        result.put("isError", false);
        ObjectNode service = meta(result).putObject("service");
        service.put("status", "require_approval");
        service.put("approvalRequestId", outcome.approvalRequestId());
        service.put("auditLogId", outcome.auditLogId());
        service.put("correlationId", caller.correlationId());
        return result;
    }

    private static ObjectNode meta(ObjectNode result) {
        JsonNode meta = result.get("_meta");
        return meta instanceof ObjectNode object ? object : result.putObject("_meta");
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
