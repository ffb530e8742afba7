package io.agentgateway.mcpgate;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcRequest;
import io.agentgateway.mcpgate.session.McpCaller;
import io.agentgateway.mcpgate.session.McpClientSession;
import io.agentgateway.mcpgate.session.McpRevisions;
import io.agentgateway.mcpgate.session.McpRevisions.Era;
import io.agentgateway.mcpgate.session.McpRevisions.Tasks;
import io.agentgateway.mcpgate.task.McpTasks;
import io.agentgateway.mcpgate.upstream.McpUpstreamCalls;
import io.agentgateway.mcpgate.upstream.McpUpstreamClients;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.GatewayJson;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The methods the gate answers (spec 4.3): initialize and ping itself; tools/call, tools/list (the upstream's list
 * cached, what it offers decided each time), resources/read and prompts/get after a decision
 * ({@link McpToolCallGate}); resources/*, prompts/list, completion/complete and logging/setLevel relayed to the
 * upstream as they are (on the client session's upstream session). Of the client's notifications,
 * {@code notifications/cancelled} cancels the request it names (upstream too) and
 * {@code notifications/roots/list_changed} is passed on; the others are accepted and not passed on. Returns the
 * result member, empty for a notification.
 */
@Component
public class McpGateMethods {
    private final McpToolCallGate toolCalls;
    private final McpUpstreamCalls calls;
    private final McpUpstreamClients clients;
    private final McpTasks tasks;

    McpGateMethods(McpToolCallGate toolCalls, McpUpstreamCalls calls, McpUpstreamClients clients, McpTasks tasks) {
        this.tasks = tasks;
        this.toolCalls = toolCalls;
        this.calls = calls;
        this.clients = clients;
    }

    public Mono<JsonNode> answer(McpCaller caller, JsonRpcRequest request) {
        if (request.isNotification()) {
            // nothing to answer (and no id to answer with)
            McpClientSession session = caller.client();
            if (session != null && "notifications/cancelled".equals(request.method()) && request.params() != null) {
                session.cancel(request.params().get("requestId"));
            } else if (session != null && "notifications/roots/list_changed".equals(request.method())
                    && session.capabilities().has("roots")) {
                clients.notifyUpstream(session, request.method());
            }
            return Mono.empty();
        }
        return Mono.defer(() -> {
            Era era = McpRevisions.of(caller, request);
            Mono<JsonNode> result = answer(caller, request, era);
            // 2026-07-28: every result says its type (and who answered), whatever the method
            return era.stateless() ? result.map(answer -> McpRevisions.stateless(request.method(), answer)) : result;
        });
    }

    private Mono<JsonNode> answer(McpCaller caller, JsonRpcRequest request, Era era) {
        UUID workspaceId = caller.key().workspaceId();
        ObjectNode params = request.params();
        return switch (request.method()) {
            case "initialize" -> {
                JsonNode asked = params == null ? null : params.get("protocolVersion");
                String version = asked == null || !asked.isString() ? McpRevisions.PROTOCOL_VERSION
                        : McpRevisions.NEGOTIABLE.contains(asked.asString()) ? asked.asString() : McpRevisions.LATEST_NEGOTIATED;
                if (caller.client() != null) {
                    // an HTTP+SSE client initializes on its open session (a Streamable HTTP one gets a new sealed id)
                    caller.client().declare(McpClientSession.relayedCapabilities(
                            params == null ? null : params.get("capabilities")));
                    caller.client().negotiated(version);
                }
                yield initializeResult(workspaceId, version).map(JsonNode.class::cast);
            }
            case "server/discover" -> discover(workspaceId).map(JsonNode.class::cast);
            case "ping" -> Mono.just(IngressJson.RESPONSES.createObjectNode());
            case "tools/call" -> toolCalls.call(caller, params, String.valueOf(request.id()), asTask(era, params));
            case "tools/list" -> toolCalls.list(caller, params, String.valueOf(request.id()))
                    .map(page -> era.tasks() == Tasks.UTILITY ? McpTasks.withTaskSupport(page) : page);
            case "resources/read", "prompts/get" ->
                    toolCalls.decided(caller, request.method(), params, String.valueOf(request.id()));
            case "tasks/get" -> tasks.get(caller, params, taskRevision(era, request.method(), Tasks.UTILITY, Tasks.EXTENSION));
            case "tasks/cancel" -> tasks.cancel(caller, params, taskRevision(era, request.method(), Tasks.UTILITY, Tasks.EXTENSION));
            case "tasks/result" -> {
                taskRevision(era, request.method(), Tasks.UTILITY, null);
                yield tasks.result(caller, params);
            }
            case "tasks/list" -> {
                taskRevision(era, request.method(), Tasks.UTILITY, null);
                yield tasks.list(caller, params);
            }
            case "tasks/update" -> {
                taskRevision(era, request.method(), null, Tasks.EXTENSION);
                yield tasks.update(caller, params);
            }
            default -> McpUpstreamCalls.RELAYED.contains(request.method())
                    ? calls.upstream(workspaceId).flatMap(upstream -> calls.relay(upstream, request.method(), params,
                            caller.client()))
                            .map(JsonNode.class::cast)
                    : Mono.error(new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + request.method()));
        };
    }

    /**
     * How a {@code tools/call} is answered as a task: 2025-11-25 when it asks for one ({@code params.task}, an
     * object), 2026-07-28 whenever its request declared the tasks extension (the server decides: held calls are tasks).
     */
    private static Tasks asTask(Era era, ObjectNode params) {
        if (era.tasks() == Tasks.EXTENSION) {
            return Tasks.EXTENSION;
        }
        JsonNode task = params == null ? null : params.get("task");
        if (era.tasks() != Tasks.UTILITY || task == null || task.isNull()) {
            return Tasks.NONE;
        }
        if (!task.isObject()) {
            throw JsonRpcError.invalidParams("params.task must be an object");
        }
        return Tasks.UTILITY;
    }

    /**
     * The revision a task method is served in: 2025-11-25 has {@code utility} of them, 2026-07-28's extension
     * {@code extension} of them (null: that revision has no such method). A client of 2026-07-28 that did not declare
     * the extension gets -32021; every other client the -32601 it got before tasks.
     */
    private static Tasks taskRevision(Era era, String method, Tasks utility, Tasks extension) {
        if (era.tasks() == Tasks.UTILITY && utility != null) {
            return utility;
        }
        if (era.tasks() == Tasks.EXTENSION && extension != null) {
            return extension;
        }
        if (era.stateless() && era.tasks() == Tasks.NONE && extension != null) {
            throw McpRevisions.tasksExtensionMissing();
        }
        throw new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + method);
    }

    /**
     * The version the client asked for when the gate speaks it, else the latest; no version at all (spec
     * 4.3's exchange) gets 2024-11-05. The capabilities are the upstream's (what the gate relays), tools
     * only when the upstream cannot be asked.
     */
    private Mono<ObjectNode> initializeResult(UUID workspaceId, String version) {
        return upstreamCapabilities(workspaceId)
                .map(capabilities -> {
                    if (McpRevisions.TASKS_UTILITY.equals(version)) {
                        // the gate's own tasks (held calls), not the upstream's: the gate serves every tasks/ method
                        capabilities.set("tasks", utilityTasksCapability());
                    }
                    ObjectNode result = IngressJson.RESPONSES.createObjectNode();
                    result.put("protocolVersion", version);
                    result.set("capabilities", capabilities);
                    result.putObject("serverInfo").put("name", "service-mcp-gate").put("version", "1.0.0");
                    return result;
                });
    }

    /**
     * 2026-07-28's {@code server/discover}: the versions the gate speaks, the upstream's capabilities as
     * {@code initialize} relays them but tasks as the extension (2025-11-25's {@code tasks} capability is not part of
     * that revision), and who answers.
     */
    private Mono<ObjectNode> discover(UUID workspaceId) {
        return upstreamCapabilities(workspaceId).map(capabilities -> {
            capabilities.remove("tasks");
            JsonNode extensions = capabilities.get("extensions");
            ObjectNode extensionsObject = extensions instanceof ObjectNode given ? given : capabilities.putObject("extensions");
            extensionsObject.putObject(McpRevisions.TASKS_EXTENSION);
            ObjectNode result = IngressJson.RESPONSES.createObjectNode();
            result.put("resultType", "complete");
            McpRevisions.SUPPORTED.forEach(result.putArray("supportedVersions")::add);
            result.set("capabilities", capabilities);
            result.putObject("_meta").set(McpRevisions.META_SERVER_INFO, McpRevisions.serverInfo());
            return result;
        });
    }

    /** 2025-11-25's tasks capability: tasks/list, tasks/cancel, and tools/call may be asked for as a task. */
    static ObjectNode utilityTasksCapability() {
        ObjectNode tasks = IngressJson.RESPONSES.createObjectNode();
        tasks.putObject("list");
        tasks.putObject("cancel");
        tasks.putObject("requests").putObject("tools").putObject("call");
        return tasks;
    }

    /** The upstream's capabilities (what the gate relays), tools only when the upstream cannot be asked. */
    private Mono<ObjectNode> upstreamCapabilities(UUID workspaceId) {
        return calls.upstream(workspaceId)
                .flatMap(upstream -> clients.request(upstream, "initialize", client -> Mono.justOrEmpty(client.getServerCapabilities())))
                .map(capabilities -> (ObjectNode) GatewayJson.MAPPER.valueToTree(capabilities))
                .onErrorResume(unreachable -> Mono.empty())
                .defaultIfEmpty(toolsOnly());
    }

    private static ObjectNode toolsOnly() {
        ObjectNode capabilities = IngressJson.RESPONSES.createObjectNode();
        capabilities.putObject("tools").put("listChanged", false);
        return capabilities;
    }
}
