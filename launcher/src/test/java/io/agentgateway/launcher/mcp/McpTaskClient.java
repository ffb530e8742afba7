package io.agentgateway.launcher.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.schemas.GatewayJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Raw JSON-RPC to the gate as an MCP client of one revision speaks it, for the task tests: a 2025-11-25 (or older)
 * client initializes once and sends its {@code Mcp-Session-Id} and {@code MCP-Protocol-Version}; a 2026-07-28 client
 * has no session and names its version and capabilities in every request's {@code _meta} (with or without the tasks
 * extension), and mirrors them in the routing headers that revision requires ({@code MCP-Protocol-Version},
 * {@code Mcp-Method}, {@code Mcp-Name}). Every exchange is kept as a transcript line (what the docs show).
 */
final class McpTaskClient {
    static final String STATELESS = "2026-07-28";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String baseUrl;
    private final String apiKey;
    private final String version;
    private final boolean tasksExtension;
    private final AtomicInteger ids = new AtomicInteger();
    private final StringBuilder transcript = new StringBuilder();
    private String session;

    private McpTaskClient(String baseUrl, String apiKey, String version, boolean tasksExtension) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.version = version;
        this.tasksExtension = tasksExtension;
    }

    /** A client that initialized with {@code version} (2025-11-25 has tasks) on the ingress at {@code baseUrl}. */
    static McpTaskClient initialized(String baseUrl, String apiKey, String version) {
        McpTaskClient client = new McpTaskClient(baseUrl, apiKey, version, false);
        HttpResponse<String> answer = client.post(client.request("initialize", GatewayJson.MAPPER.createObjectNode()
                .put("protocolVersion", version).set("capabilities", GatewayJson.MAPPER.createObjectNode())));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        client.session = answer.headers().firstValue("Mcp-Session-Id").orElseThrow();
        client.initializeResult = GatewayJson.MAPPER.readTree(answer.body()).get("result");
        return client;
    }

    /** A 2026-07-28 client (no handshake); {@code tasksExtension}: whether its requests declare the tasks extension. */
    static McpTaskClient stateless(String baseUrl, String apiKey, boolean tasksExtension) {
        return new McpTaskClient(baseUrl, apiKey, STATELESS, tasksExtension);
    }

    private JsonNode initializeResult;

    JsonNode initializeResult() {
        return initializeResult;
    }

    /** The same client (session, version) against another replica of the gateway. */
    McpTaskClient at(String otherBaseUrl) {
        McpTaskClient other = new McpTaskClient(otherBaseUrl, apiKey, version, tasksExtension);
        other.session = session;
        return other;
    }

    /** The same client with another API key (its session is this key's: a 2025 client of another key has none). */
    McpTaskClient withKey(String otherKey) {
        return new McpTaskClient(baseUrl, otherKey, version, tasksExtension);
    }

    /** The whole response object of one request. */
    JsonNode rpc(String method, ObjectNode params) {
        HttpResponse<String> answer = post(request(method, params));
        assertThat(answer.statusCode()).as(method + ": " + answer.body()).isEqualTo(200);
        return GatewayJson.MAPPER.readTree(answer.body());
    }

    /** The whole response object of a request the gate refuses with the HTTP status {@code status}. */
    JsonNode refused(String method, ObjectNode params, int status) {
        HttpResponse<String> answer = post(request(method, params));
        assertThat(answer.statusCode()).as(method + ": " + answer.body()).isEqualTo(status);
        return GatewayJson.MAPPER.readTree(answer.body());
    }

    /** The request sent without waiting for its answer (a tasks/result that waits). */
    CompletableFuture<JsonNode> rpcLater(String method, ObjectNode params) {
        String body = request(method, params);
        return HTTP.sendAsync(builder(body).build(), HttpResponse.BodyHandlers.ofString()).thenApply(answer -> {
            log(body, answer.body());
            return GatewayJson.MAPPER.readTree(answer.body());
        });
    }

    static ObjectNode params() {
        return GatewayJson.MAPPER.createObjectNode();
    }

    static ObjectNode taskParams(String taskId) {
        return params().put("taskId", taskId);
    }

    /** A tools/call of {@code tool} with a marker (and {@code extra} arguments), as a 2025-11-25 task when asked. */
    static ObjectNode call(String tool, String marker, boolean asTask) {
        ObjectNode params = params().put("name", tool);
        params.putObject("arguments").put("marker", marker);
        if (asTask) {
            params.putObject("task").put("ttl", 600000);
        }
        return params;
    }

    String transcript() {
        return transcript.toString();
    }

    private String request(String method, ObjectNode params) {
        ObjectNode request = GatewayJson.MAPPER.createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", ids.incrementAndGet());
        request.put("method", method);
        ObjectNode copy = params == null ? params() : params.deepCopy();
        if (STATELESS.equals(version)) {
            JsonNode given = copy.get("_meta");
            ObjectNode meta = given instanceof ObjectNode object ? object : copy.putObject("_meta");
            meta.put("io.modelcontextprotocol/protocolVersion", STATELESS);
            meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "raw-task-client").put("version", "1.0.0");
            ObjectNode capabilities = meta.putObject("io.modelcontextprotocol/clientCapabilities");
            if (tasksExtension) {
                capabilities.putObject("extensions").putObject("io.modelcontextprotocol/tasks");
            }
        }
        request.set("params", copy);
        return GatewayJson.MAPPER.writeValueAsString(request);
    }

    private HttpResponse<String> post(String body) {
        HttpResponse<String> answer = McpGateClients.send(builder(body).build());
        log(body, answer.body());
        return answer;
    }

    private HttpRequest.Builder builder(String body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + McpGateClients.GATE))
                .timeout(Duration.ofSeconds(90))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("Authorization", "Bearer " + apiKey)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            builder.header("Mcp-Session-Id", session);
        }
        if (session != null || STATELESS.equals(version)) {
            builder.header("MCP-Protocol-Version", version);
        }
        if (STATELESS.equals(version)) {
            JsonNode request = GatewayJson.MAPPER.readTree(body);
            String method = request.get("method").asString();
            builder.header("Mcp-Method", method);
            String name = switch (method) {
                case "tools/call", "prompts/get" -> "name";
                case "resources/read" -> "uri";
                case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
                default -> null;
            };
            if (name != null) {
                builder.header("Mcp-Name", request.at("/params/" + name).asString());
            }
        }
        return builder;
    }

    private synchronized void log(String request, String response) {
        transcript.append("--> ").append(request).append('\n').append("<-- ").append(response).append('\n');
    }
}
