package io.agentgateway.mcpgate.session;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcRequest;
import io.agentgateway.httpedge.web.IngressJson;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Which MCP revision a request speaks, and so whether and how its held {@code tools/call} is a task.
 *
 * <ul>
 *   <li>Up to 2025-11-25 a client negotiates its version once, at {@code initialize}: the gate knows it from the
 *       session (sealed in the {@code Mcp-Session-Id}, or the HTTP+SSE session) or the {@code MCP-Protocol-Version}
 *       header. 2025-11-25 has tasks as a utility: capability {@code tasks}, {@code params.task} on a
 *       {@code tools/call}, {@code tasks/get|result|list|cancel}.</li>
 *   <li>2026-07-28 has no handshake: every request names its version and the client's capabilities in its own
 *       {@code _meta}; tasks are the extension {@value #TASKS_EXTENSION}, which the request declares among its
 *       capabilities, and the server decides per call whether it answers with a task ({@code resultType: "task"}).</li>
 * </ul>
 * A client that names no version (spec 4.3's exchange) or another one gets today's answers, tasks never.
 */
public final class McpRevisions {
    /** Spec 4.3's version: the answer when the client names none (the spec's exchange sends no params). */
    public static final String PROTOCOL_VERSION = "2024-11-05";
    /**
     * Versions a client may negotiate at {@code initialize} (the gate's methods are the same in each). MCP version
     * negotiation: a server answers with the version the client asked for when it supports it; real Streamable HTTP
     * clients ask for 2025-03-26 or later and refuse a server that answers 2024-11-05.
     */
    public static final Set<String> NEGOTIABLE = Set.of(PROTOCOL_VERSION, "2025-03-26", "2025-06-18", "2025-11-25");
    /** The answer to a client that asks for a version the gate does not speak: the latest it does (MCP negotiation). */
    public static final String LATEST_NEGOTIATED = "2025-11-25";
    /** The revision whose tasks are a utility of the core protocol. */
    public static final String TASKS_UTILITY = "2025-11-25";
    /** The revision without a handshake, whose tasks are an extension. */
    public static final String STATELESS = "2026-07-28";
    static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    public static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    public static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
    public static final String RELATED_TASK = "io.modelcontextprotocol/related-task";
    public static final String MODEL_IMMEDIATE_RESPONSE = "io.modelcontextprotocol/model-immediate-response";
    /** Every version the gate speaks, newest first (what {@code server/discover} and an unsupported-version error list). */
    public static final List<String> SUPPORTED = List.of(STATELESS, TASKS_UTILITY, "2025-06-18", "2025-03-26",
            PROTOCOL_VERSION);
    /** 2026-07-28 results that say how long they may be cached ({@code CacheableResult}). */
    private static final Set<String> CACHEABLE = Set.of("tools/list", "prompts/list", "resources/list",
            "resources/templates/list", "resources/read", "server/discover");

    private McpRevisions() {}

    /** How a request's held {@code tools/call} may be answered as a task. */
    public enum Tasks {
        /** Not at all: today's answer. */
        NONE,
        /** 2025-11-25: when the call asks for one ({@code params.task}). */
        UTILITY,
        /** 2026-07-28 with the extension declared on the request: the server decides (held calls are tasks). */
        EXTENSION
    }

    /** What one request speaks: its version (null: none said), whether that is 2026-07-28, and its tasks. */
    public record Era(String version, boolean stateless, Tasks tasks) {
        static final Era NONE = new Era(null, false, Tasks.NONE);
    }

    /**
     * The era of one request of this caller.
     *
     * @throws JsonRpcError -32022 when the request's {@code _meta} names a version the gate does not speak; -32602
     *                      when it names 2026-07-28 without the members that revision requires
     */
    public static Era of(McpCaller caller, JsonRpcRequest request) {
        String declared = declaredVersion(request);
        String version;
        if (declared != null) {
            version = declared;
            if (!SUPPORTED.contains(version)) {
                throw unsupported(version);
            }
        } else {
            version = caller.protocolVersion();
        }
        if (STATELESS.equals(version)) {
            JsonNode capabilities = declared == null ? null : requireClientCapabilities(request);
            JsonNode extension = capabilities == null ? null : capabilities.path("extensions").get(TASKS_EXTENSION);
            return new Era(version, true, extension != null && extension.isObject() ? Tasks.EXTENSION : Tasks.NONE);
        }
        return new Era(version, false, TASKS_UTILITY.equals(version) ? Tasks.UTILITY : Tasks.NONE);
    }

    /**
     * The protocol version a request declares in its own {@code _meta} ({@code io.modelcontextprotocol/protocolVersion},
     * 2026-07-28's way), null when it declares none (a request of a session: its version is the session's).
     *
     * @throws JsonRpcError -32602 when the member is there but not a string (the key is reserved for this use)
     */
    public static String declaredVersion(JsonRpcRequest request) {
        JsonNode meta = request.params() == null ? null : request.params().get("_meta");
        JsonNode declared = meta == null || !meta.isObject() ? null : meta.get(META_PROTOCOL_VERSION);
        if (declared == null) {
            return null;
        }
        if (!declared.isString()) {
            throw JsonRpcError.invalidParams("Invalid params: _meta[\"" + META_PROTOCOL_VERSION + "\"] must be a string");
        }
        return declared.asString();
    }

    /**
     * 2026-07-28's required {@code _meta} member besides the version (basic/index.mdx, "Per-request protocol fields":
     * "fields marked as required MUST be included on every request"): the client's capabilities, an object.
     *
     * @throws JsonRpcError -32602 when it is missing or not an object ("A request missing any required field is
     *                      malformed; the server MUST reject it with JSON-RPC error code -32602")
     */
    public static JsonNode requireClientCapabilities(JsonRpcRequest request) {
        JsonNode capabilities = request.params() == null ? null : request.params().path("_meta").get(META_CLIENT_CAPABILITIES);
        if (capabilities == null || !capabilities.isObject()) {
            throw JsonRpcError.invalidParams("Invalid params: a " + STATELESS + " request must carry _meta[\""
                    + META_CLIENT_CAPABILITIES + "\"], an object");
        }
        return capabilities;
    }

    /** -32022 for a version the gate does not speak, listing the ones it does ({@code data.supported, requested}). */
    public static JsonRpcError unsupported(String requested) {
        ObjectNode data = IngressJson.RESPONSES.createObjectNode();
        SUPPORTED.forEach(data.putArray("supported")::add);
        data.put("requested", requested.length() > 64 ? requested.substring(0, 64) : requested);
        return new JsonRpcError(JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", data);
    }

    /** -32021 for a 2026-07-28 task method from a request that did not declare the tasks extension. */
    public static JsonRpcError tasksExtensionMissing() {
        ObjectNode data = IngressJson.RESPONSES.createObjectNode();
        data.putObject("requiredCapabilities").putObject("extensions").putObject(TASKS_EXTENSION);
        return new JsonRpcError(JsonRpcError.MISSING_CLIENT_CAPABILITY, "Missing required client capability", data);
    }

    /**
     * A 2026-07-28 result as that revision requires it: {@code resultType} ({@code "complete"} unless the result set
     * one, as a task does), the server's identity in {@code _meta}, and for the cacheable results how long they may be
     * kept (not at all: what the gate offers is decided per request) and by whom (this client only).
     */
    public static JsonNode stateless(String method, JsonNode result) {
        if (!(result instanceof ObjectNode object)) {
            return result;
        }
        if (!object.has("resultType")) {
            object.put("resultType", "complete");
        }
        JsonNode meta = object.get("_meta");
        ObjectNode metaObject = meta instanceof ObjectNode given ? given : object.putObject("_meta");
        if (!metaObject.has(META_SERVER_INFO)) {
            metaObject.set(META_SERVER_INFO, serverInfo());
        }
        if (CACHEABLE.contains(method)) {
            if (!object.has("ttlMs")) {
                object.put("ttlMs", 0);
            }
            if (!object.has("cacheScope")) {
                object.put("cacheScope", "private");
            }
        }
        return object;
    }

    public static ObjectNode serverInfo() {
        ObjectNode info = IngressJson.RESPONSES.createObjectNode();
        info.put("name", "service-mcp-gate").put("version", "1.0.0");
        return info;
    }
}
