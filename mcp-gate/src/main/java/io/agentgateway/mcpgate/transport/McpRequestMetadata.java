package io.agentgateway.mcpgate.transport;

import io.agentgateway.mcpgate.jsonrpc.JsonRpcError;
import io.agentgateway.mcpgate.jsonrpc.JsonRpcRequest;
import io.agentgateway.mcpgate.session.McpRevisions;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;

/**
 * MCP 2026-07-28's request metadata on HTTP, checked before anything else is done with a request (no key check, no
 * decision, no upstream call, no audit row): the routing headers present and equal to the body
 * ({@code MCP-Protocol-Version} to {@code _meta}'s version, {@code Mcp-Method} to {@code method}, {@code Mcp-Name} to
 * {@code params.name}, {@code params.uri} or, for the tasks extension's methods, {@code params.taskId}), the version one
 * the gate speaks, and {@code _meta}'s required members. Each refusal has the code and the HTTP status the revision
 * gives it (streamable-http.mdx, "Server Validation"; basic/index.mdx, "Per-request protocol fields").
 *
 * <p>A request is judged by 2026-07-28 when its {@code _meta} declares a protocol version or its
 * {@code MCP-Protocol-Version} header names one that is not negotiated at {@code initialize} (2026-07-28, or a version
 * the gate does not know). Every other request is a session's (2025-11-25 and older) and is served as before;
 * {@code initialize} always is (it selects the legacy revisions). Where the revision leaves a choice the stricter
 * reading is taken (docs/reference/mcp-gate.md, "MCP 2026-07-28").
 */
final class McpRequestMetadata {
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    static final String METHOD_HEADER = "Mcp-Method";
    static final String NAME_HEADER = "Mcp-Name";
    private static final String BASE64_PREFIX = "=?base64?";
    private static final String BASE64_SUFFIX = "?=";
    /**
     * The body member {@code Mcp-Name} mirrors, by method: the core's three (streamable-http.mdx, "Standard Request
     * Headers") and the tasks extension's three (tasks.md, "Streamable HTTP: Routing Headers").
     */
    private static final Map<String, String> NAME_SOURCES = Map.of("tools/call", "name", "prompts/get", "name",
            "resources/read", "uri", "tasks/get", "taskId", "tasks/update", "taskId", "tasks/cancel", "taskId");

    private McpRequestMetadata() {}

    /**
     * What the checks found.
     *
     * @param stateless whether the request is served as 2026-07-28 (its protocol errors then have that revision's HTTP
     *                  statuses, {@link #statusOf})
     * @param refusal   the refusal, null when the request may be served
     */
    record Checked(boolean stateless, Refusal refusal) {
        static final Checked SESSION = new Checked(false, null);
        static final Checked STATELESS = new Checked(true, null);
    }

    /**
     * A request refused before anything was done with it.
     *
     * @param id     the request's id to echo, null for a notification or a body whose id cannot be read
     * @param reason what was wrong, as the tag of the refusal counter
     */
    record Refusal(HttpStatus status, JsonNode id, JsonRpcError error, String reason) {}

    /**
     * Whether the {@code MCP-Protocol-Version} header alone makes a request 2026-07-28's (a version that is not
     * negotiated at {@code initialize}): such a request has no session, and its {@code Mcp-Session-Id} is ignored.
     */
    static boolean statelessHeader(HttpHeaders headers) {
        List<String> versions = headers.getOrEmpty(VERSION_HEADER);
        return versions.stream().anyMatch(version -> !McpRevisions.NEGOTIABLE.contains(strip(version)));
    }

    /** The checks of one POST's body (empty: not JSON) against its headers. */
    static Checked check(HttpHeaders headers, Optional<JsonNode> body) {
        boolean statelessHeader = statelessHeader(headers);
        if (body.isEmpty()) {
            return statelessHeader ? refuse(null, new JsonRpcError(JsonRpcError.PARSE_ERROR, "Parse error: the body is not JSON"))
                    : Checked.SESSION;
        }
        JsonNode node = body.get();
        if (node.isArray()) {
            boolean declared = false;
            for (JsonNode element : node) {
                declared |= declaresVersion(element);
            }
            // "The body of the HTTP POST MUST be a single JSON-RPC request or notification"
            return statelessHeader || declared ? refuse(null, new JsonRpcError(JsonRpcError.INVALID_REQUEST,
                    "Invalid request: a " + McpRevisions.STATELESS + " request is one JSON-RPC message per POST, never a batch"))
                    : Checked.SESSION;
        }
        if ((!statelessHeader && !declaresVersion(node)) || "initialize".equals(node.path("method").asString(null))) {
            return Checked.SESSION;
        }
        if (node.isObject() && !node.has("method") && (node.has("result") || node.has("error"))) {
            // "The client MUST NOT send JSON-RPC responses": nothing of this revision asks the client anything
            return refuse(JsonRpcRequest.idOf(node), new JsonRpcError(JsonRpcError.INVALID_REQUEST,
                    "Invalid request: a " + McpRevisions.STATELESS + " client sends requests only"));
        }
        JsonRpcRequest request;
        try {
            request = JsonRpcRequest.parse(node);
        } catch (JsonRpcError invalid) {
            return refuse(JsonRpcRequest.idOf(node), invalid);
        }
        try {
            return checkStateless(headers, request) ? Checked.STATELESS : Checked.SESSION;
        } catch (JsonRpcError refused) {
            return refuse(request.id(), refused);
        }
    }

    /**
     * The HTTP status of a 2026-07-28 answer: 404 for -32601 (streamable-http.mdx: "If the server does not implement
     * the requested RPC method, it MUST respond with 404 Not Found"), 400 for this revision's own errors and for a
     * request that is no JSON-RPC request, 200 for everything else (a policy's -32001, an upstream's -32002, a task not
     * found: answers about what the request asked, not refusals of it).
     */
    static HttpStatus statusOf(JsonNode answer) {
        JsonNode code = answer.path("error").path("code");
        if (!code.isInt()) {
            return HttpStatus.OK;
        }
        return switch (code.asInt()) {
            case JsonRpcError.METHOD_NOT_FOUND -> HttpStatus.NOT_FOUND;
            case JsonRpcError.HEADER_MISMATCH, JsonRpcError.MISSING_CLIENT_CAPABILITY,
                 JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION, JsonRpcError.PARSE_ERROR, JsonRpcError.INVALID_REQUEST ->
                    HttpStatus.BAD_REQUEST;
            default -> HttpStatus.OK;
        };
    }

    /** The refusal counter's tag for an error code. */
    static String reasonOf(int code) {
        return switch (code) {
            case JsonRpcError.HEADER_MISMATCH -> "header_mismatch";
            case JsonRpcError.MISSING_CLIENT_CAPABILITY -> "missing_capability";
            case JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION -> "unsupported_version";
            case JsonRpcError.INVALID_PARAMS -> "invalid_params";
            case JsonRpcError.METHOD_NOT_FOUND -> "method_not_found";
            default -> "invalid_request";
        };
    }

    /**
     * The checks in the order a client can act on them: the version (a request of a version the gate does not speak
     * is judged by no revision's rules but told which it does), the headers against the body, then {@code _meta}.
     *
     * @return whether the request is 2026-07-28's (false: it declared a version negotiated at {@code initialize},
     *         with a header that says the same, and is served as that version's)
     * @throws JsonRpcError the refusal
     */
    private static boolean checkStateless(HttpHeaders headers, JsonRpcRequest request) {
        String declared = McpRevisions.declaredVersion(request);
        String versionHeader = single(headers, VERSION_HEADER);
        if (declared != null && !McpRevisions.SUPPORTED.contains(declared)) {
            throw McpRevisions.unsupported(declared);
        }
        if (declared == null) {
            if (versionHeader != null && !McpRevisions.SUPPORTED.contains(versionHeader)) {
                throw McpRevisions.unsupported(versionHeader);
            }
            throw JsonRpcError.invalidParams("Invalid params: a " + McpRevisions.STATELESS
                    + " request must carry _meta[\"io.modelcontextprotocol/protocolVersion\"]");
        }
        if (versionHeader == null) {
            throw mismatch("the " + VERSION_HEADER + " header is required");
        }
        if (!versionHeader.equals(declared)) {
            throw mismatch("the " + VERSION_HEADER + " header does not match _meta[\"io.modelcontextprotocol/protocolVersion\"]");
        }
        if (!McpRevisions.STATELESS.equals(declared)) {
            return false;
        }
        String method = single(headers, METHOD_HEADER);
        if (method == null) {
            throw mismatch("the " + METHOD_HEADER + " header is required");
        }
        if (!method.equals(request.method())) {
            throw mismatch("the " + METHOD_HEADER + " header does not match the body's method");
        }
        String name = single(headers, NAME_HEADER);
        String source = NAME_SOURCES.get(request.method());
        if (source == null && name != null) {
            // no body member to match: a name an intermediary routes on that the gate would not act on
            throw mismatch("the " + NAME_HEADER + " header is not defined for " + request.method());
        }
        if (source != null) {
            if (name == null) {
                throw mismatch("the " + NAME_HEADER + " header is required for " + request.method());
            }
            JsonNode value = request.params() == null ? null : request.params().get(source);
            if (value == null || !value.isString() || !decoded(name).equals(value.asString())) {
                throw mismatch("the " + NAME_HEADER + " header does not match params." + source);
            }
        }
        McpRevisions.requireClientCapabilities(request);
        return true;
    }

    private static boolean declaresVersion(JsonNode element) {
        JsonNode meta = element.path("params").path("_meta");
        return meta.isObject() && meta.has("io.modelcontextprotocol/protocolVersion");
    }

    /**
     * A header's one value (null when absent), its optional whitespace taken off.
     *
     * @throws JsonRpcError -32020 when it is sent more than once (which of them would an intermediary have read?) or
     *                      holds characters a header value may not (RFC 9110: visible ASCII, space, tab)
     */
    private static String single(HttpHeaders headers, String name) {
        List<String> values = headers.getOrEmpty(name);
        if (values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw mismatch("the " + name + " header is sent more than once");
        }
        String value = values.get(0);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 || c > 0x7e) && c != '\t') {
                throw mismatch("the " + name + " header holds characters a header value may not");
            }
        }
        return strip(value);
    }

    /**
     * An {@code Mcp-Name} value as the body would say it: {@code =?base64?…?=} is the UTF-8 of its Base64
     * (streamable-http.mdx, "Value Encoding": "servers MUST decode an encoded Mcp-Name ... before comparing it").
     */
    private static String decoded(String value) {
        if (!value.startsWith(BASE64_PREFIX) || !value.endsWith(BASE64_SUFFIX)
                || value.length() < BASE64_PREFIX.length() + BASE64_SUFFIX.length()) {
            return value;
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(
                    value.substring(BASE64_PREFIX.length(), value.length() - BASE64_SUFFIX.length()));
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | CharacterCodingException malformed) {
            throw mismatch("the " + NAME_HEADER + " header's Base64 value is malformed");
        }
    }

    private static String strip(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
            end--;
        }
        return value.substring(start, end);
    }

    private static JsonRpcError mismatch(String why) {
        return new JsonRpcError(JsonRpcError.HEADER_MISMATCH, "Header mismatch: " + why);
    }

    /** Every refusal of this revision is a 400 (streamable-http.mdx; basic/index.mdx for -32602 and -32021). */
    private static Checked refuse(JsonNode id, JsonRpcError error) {
        return new Checked(true, new Refusal(HttpStatus.BAD_REQUEST, id, error, reasonOf(error.code())));
    }
}
