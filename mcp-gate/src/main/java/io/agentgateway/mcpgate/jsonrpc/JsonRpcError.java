package io.agentgateway.mcpgate.jsonrpc;

import tools.jackson.databind.JsonNode;

/**
 * A JSON-RPC 2.0 error answer (code, message, optional data). Thrown inside the gate and turned into
 * the error member of the response for the request's id. Its HTTP status is the transport's to say: 200 but for a
 * 2026-07-28 request on Streamable HTTP, whose protocol errors have the statuses that revision gives them
 * ({@code transport.McpRequestMetadata}).
 */
public class JsonRpcError extends RuntimeException {
    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** Spec 4.3: a tools/call the policies blocked. */
    public static final int BLOCKED = -32001;
    /** Spec 4.3's text of a blocked tools/call (its reason is in the error's data). */
    public static final String BLOCKED_MESSAGE = "Tool call blocked by policy";
    /** The upstream MCP server is missing, unreachable or failed (implementation-defined server error range). */
    public static final int UPSTREAM_FAILED = -32002;
    /**
     * MCP 2026-07-28, Streamable HTTP: the routing headers ({@code MCP-Protocol-Version}, {@code Mcp-Method},
     * {@code Mcp-Name}) are missing, malformed, or say something else than the body.
     */
    public static final int HEADER_MISMATCH = -32020;
    /** MCP 2026-07-28: a request needs a client capability it did not declare (e.g. the tasks extension). */
    public static final int MISSING_CLIENT_CAPABILITY = -32021;
    /** MCP 2026-07-28: the protocol version a request names is not one the gate speaks. */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private final int code;
    private final transient JsonNode data;
    private final String detail;
    /** Whether the request provably never reached the upstream (so retrying it, or saying "not run", is safe). */
    private final boolean notSent;

    public JsonRpcError(int code, String message) {
        this(code, message, null);
    }

    public JsonRpcError(int code, String message, JsonNode data) {
        this(code, message, data, null);
    }

    private JsonRpcError(int code, String message, JsonNode data, String detail) {
        this(code, message, data, detail, false);
    }

    private JsonRpcError(int code, String message, JsonNode data, String detail, boolean notSent) {
        super(message, null, false, false);
        this.code = code;
        this.data = data;
        this.detail = detail;
        this.notSent = notSent;
    }

    public static JsonRpcError invalidParams(String message) {
        return new JsonRpcError(INVALID_PARAMS, message);
    }

    public static JsonRpcError upstream(String message) {
        return new JsonRpcError(UPSTREAM_FAILED, message);
    }

    /**
     * An upstream failure whose cause ({@code detail}: exception classes, addresses) is for the gateway's
     * log, never for the answer: the gate logs it with the correlation id and answers {@code message}.
     */
    public static JsonRpcError upstream(String message, String detail) {
        return new JsonRpcError(UPSTREAM_FAILED, message, null, detail);
    }

    /** An internal failure whose cause ({@code detail}) is for the gateway's log only, like {@link #upstream(String, String)}. */
    public static JsonRpcError internal(String message, String detail) {
        return new JsonRpcError(INTERNAL_ERROR, message, null, detail);
    }

    /** What the log may know of this error beyond its message; null when nothing. */
    public String detail() {
        return detail;
    }

    /** The same error answered with {@code data}. */
    public JsonRpcError withData(JsonNode newData) {
        return new JsonRpcError(code, getMessage(), newData, detail, notSent);
    }

    /** The same error, known to have happened before anything was sent upstream. */
    public JsonRpcError asNotSent() {
        return new JsonRpcError(code, getMessage(), data, detail, true);
    }

    public boolean notSent() {
        return notSent;
    }

    public int code() {
        return code;
    }

    public JsonNode data() {
        return data;
    }
}
