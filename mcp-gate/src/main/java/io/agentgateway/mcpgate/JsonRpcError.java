package io.agentgateway.mcpgate;

import tools.jackson.databind.JsonNode;

/**
 * A JSON-RPC 2.0 error answer (code, message, optional data). Thrown inside the gate and turned into
 * the error member of the response for the request's id; never into an HTTP error status.
 */
class JsonRpcError extends RuntimeException {
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /** Spec 4.3: a tools/call the policies blocked. */
    static final int BLOCKED = -32001;
    /** The upstream MCP server is missing, unreachable or failed (implementation-defined server error range). */
    static final int UPSTREAM_FAILED = -32002;
    /** MCP 2026-07-28: a request needs a client capability it did not declare (e.g. the tasks extension). */
    static final int MISSING_CLIENT_CAPABILITY = -32021;
    /** MCP 2026-07-28: the protocol version a request names is not one the gate speaks. */
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private final int code;
    private final transient JsonNode data;
    private final String detail;
    /** Whether the request provably never reached the upstream (so retrying it, or saying "not run", is safe). */
    private final boolean notSent;

    JsonRpcError(int code, String message) {
        this(code, message, null);
    }

    JsonRpcError(int code, String message, JsonNode data) {
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

    static JsonRpcError invalidParams(String message) {
        return new JsonRpcError(INVALID_PARAMS, message);
    }

    static JsonRpcError upstream(String message) {
        return new JsonRpcError(UPSTREAM_FAILED, message);
    }

    /**
     * An upstream failure whose cause ({@code detail}: exception classes, addresses) is for the gateway's
     * log, never for the answer: the gate logs it with the correlation id and answers {@code message}.
     */
    static JsonRpcError upstream(String message, String detail) {
        return new JsonRpcError(UPSTREAM_FAILED, message, null, detail);
    }

    /** An internal failure whose cause ({@code detail}) is for the gateway's log only, like {@link #upstream(String, String)}. */
    static JsonRpcError internal(String message, String detail) {
        return new JsonRpcError(INTERNAL_ERROR, message, null, detail);
    }

    /** What the log may know of this error beyond its message; null when nothing. */
    String detail() {
        return detail;
    }

    /** The same error answered with {@code data}. */
    JsonRpcError withData(JsonNode newData) {
        return new JsonRpcError(code, getMessage(), newData, detail, notSent);
    }

    /** The same error, known to have happened before anything was sent upstream. */
    JsonRpcError asNotSent() {
        return new JsonRpcError(code, getMessage(), data, detail, true);
    }

    boolean notSent() {
        return notSent;
    }

    int code() {
        return code;
    }

    JsonNode data() {
        return data;
    }
}
