package io.agentgateway.mcpgate.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.mcpgate.McpGateSliceTest;
import io.agentgateway.schemas.Decision;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP 2026-07-28 on Streamable HTTP, one test per MUST the revision sets a server, the specification's line quoted
 * beside each (docs/specification/2026-07-28/basic/transports/streamable-http.mdx, basic/index.mdx, and the tasks
 * extension's specification/draft/tasks.md): every refusal comes before anything else is done with the request (no key
 * check, no decision, no upstream call), with the code and HTTP status the revision gives it, and is counted.
 */
class McpStatelessRequestsTest extends McpGateSliceTest {
    @Autowired
    private MeterRegistry meters;

    private static ObjectNode noCapabilities() {
        return params();
    }

    /** The answer's body, asserting its HTTP status. */
    private JsonNode answered(int status, String body, String... headers) {
        return IngressJson.REQUESTS.readTree(post(body, headers).expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().returnResult().getResponseBody());
    }

    private double refused(String reason) {
        Counter counter = meters.find("gateway.mcp.refused").tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }

    /** Nothing was done with the request: no key check, no decision, nothing upstream. */
    private void nothingWasDone(String marker) {
        verify(access, never()).authorize(any(), anyString(), any(), any(), any());
        verify(gate, never()).decide(any());
        assertThat(UPSTREAM.calls()).noneMatch(call -> call.endsWith(" " + marker));
    }

    @Test
    void aToolCallWhoseMcpNameIsAnotherToolIsRefusedAndNeverRunsOrIsDecided() {
        // streamable-http.mdx, "Server Validation": "Servers that process the request body MUST reject requests where
        // the values specified in the headers do not match the corresponding values in the request body." ... "servers
        // MUST return HTTP status 400 Bad Request and MUST include a JSON-RPC error response using the following error
        // code: -32020 HeaderMismatch"
        decides(outcome(Decision.ALLOW, "fine"));
        String marker = UUID.randomUUID().toString();
        double before = refused("header_mismatch");
        JsonNode answer = answered(400, request(7, "tools/call", stateless(call("list_repos", marker), noCapabilities())),
                routing("tools/call", "delete_repo"));
        assertThat(answer.get("id").asInt()).isEqualTo(7);
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32020);
        assertThat(answer.at("/error/message").asString()).contains("Mcp-Name");
        assertThat(answer.at("/error/data/correlationId").asString()).isNotBlank();
        assertThat(refused("header_mismatch")).as("counted as a refused request").isEqualTo(before + 1);
        nothingWasDone(marker);
    }

    @Test
    void theSameCallWithItsOwnNameRunsOnce() {
        // the control of the test above: a conforming request with the same body is decided and runs upstream
        decides(outcome(Decision.ALLOW, "fine"));
        String marker = UUID.randomUUID().toString();
        JsonNode answer = answered(200, request(8, "tools/call", stateless(call("list_repos", marker), noCapabilities())),
                routing("tools/call", "list_repos"));
        assertThat(answer.at("/result/content/0/text").asString()).isEqualTo("list_repos done " + marker);
        assertThat(answer.at("/result/resultType").asString()).isEqualTo("complete");
        assertThat(UPSTREAM.calls()).containsOnlyOnce("list_repos " + marker);
    }

    @Test
    void aToolCallWithoutMcpNameIsRefused() {
        // "Standard Request Headers": Mcp-Name (params.name or params.uri) for "tools/call, resources/read, prompts/get
        // requests". "These headers are REQUIRED for compliance." Validation failure conditions: "A required standard
        // header (MCP-Protocol-Version, Mcp-Method, Mcp-Name) is missing."
        String marker = UUID.randomUUID().toString();
        assertThat(answered(400, request(1, "tools/call", stateless(call("list_repos", marker), noCapabilities())),
                routing("tools/call", null)).at("/error/code").asInt()).isEqualTo(-32020);
        ObjectNode read = stateless(params().put("uri", "file:///etc/passwd"), noCapabilities());
        assertThat(answered(400, request(2, "resources/read", read), routing("resources/read", "file:///README.md"))
                .at("/error/code").asInt()).as("resources/read: Mcp-Name is params.uri").isEqualTo(-32020);
        ObjectNode prompt = stateless(params().put("name", "review"), noCapabilities());
        assertThat(answered(400, request(3, "prompts/get", prompt), routing("prompts/get", null))
                .at("/error/code").asInt()).isEqualTo(-32020);
        nothingWasDone(marker);
    }

    @Test
    void aRequestWithoutMcpMethodOrWithAnotherOneIsRefused() {
        // "Standard Request Headers": Mcp-Method, source field method, "All requests". "These headers are REQUIRED"
        assertThat(answered(400, request(1, "tools/list", stateless(params(), noCapabilities())),
                "MCP-Protocol-Version", "2026-07-28").at("/error/code").asInt()).isEqualTo(-32020);
        assertThat(answered(400, request(2, "tools/list", stateless(params(), noCapabilities())),
                routing("prompts/list", null)).at("/error/code").asInt()).isEqualTo(-32020);
        // "Header values (such as method names) are case-sensitive."
        assertThat(answered(400, request(3, "tools/list", stateless(params(), noCapabilities())),
                routing("Tools/List", null)).at("/error/code").asInt()).isEqualTo(-32020);
        nothingWasDone("none");
    }

    @Test
    void aProtocolVersionHeaderThatIsNotTheMetasVersionIsAHeaderMismatch() {
        // "Protocol Version Header": "The header value MUST match the io.modelcontextprotocol/protocolVersion field
        // carried in the request body's _meta. If the values do not match, the server MUST reject the request with
        // 400 Bad Request and a HeaderMismatch JSON-RPC error"
        String body = request(1, "tools/list", stateless(params(), noCapabilities()));
        assertThat(answered(400, body, "MCP-Protocol-Version", "2025-11-25", "Mcp-Method", "tools/list")
                .at("/error/code").asInt()).isEqualTo(-32020);
        // "Every POST request to the MCP endpoint MUST include an MCP-Protocol-Version header."
        assertThat(answered(400, body, "Mcp-Method", "tools/list").at("/error/code").asInt()).isEqualTo(-32020);
        nothingWasDone("none");
    }

    @Test
    void aMetaWithoutTheClientsCapabilitiesIsInvalidParamsWith400() {
        // basic/index.mdx, "Per-request protocol fields": io.modelcontextprotocol/clientCapabilities, Required "Yes".
        // "A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code
        // -32602 (Invalid params). On HTTP, the response status MUST be 400 Bad Request."
        String marker = UUID.randomUUID().toString();
        JsonNode answer = answered(400, request(4, "tools/call", stateless(call("list_repos", marker), null)),
                routing("tools/call", "list_repos"));
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(answer.at("/error/message").asString()).contains("io.modelcontextprotocol/clientCapabilities");
        // the header names 2026-07-28 and the body declares no version at all: the required version is missing
        assertThat(answered(400, request(5, "tools/list", params()), routing("tools/list", null))
                .at("/error/code").asInt()).isEqualTo(-32602);
        nothingWasDone(marker);
    }

    @Test
    void aVersionTheGateDoesNotSpeakIs400WithTheOnesItDoes() {
        // "If the server does not implement the requested protocol version ..., it MUST respond with 400 Bad Request
        // and an UnsupportedProtocolVersionError listing its supported versions." schema.ts: data {supported, requested}
        ObjectNode params = stateless(params(), noCapabilities());
        ((ObjectNode) params.get("_meta")).put("io.modelcontextprotocol/protocolVersion", "1900-01-01");
        JsonNode answer = answered(400, request(6, "tools/list", params),
                "MCP-Protocol-Version", "1900-01-01", "Mcp-Method", "tools/list");
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32022);
        assertThat(answer.at("/error/data/requested").asString()).isEqualTo("1900-01-01");
        assertThat(answer.at("/error/data/supported")).extracting(JsonNode::asString).contains("2026-07-28", "2025-11-25");
        nothingWasDone("none");
    }

    @Test
    void aTaskMethodWithoutTheTasksExtensionDeclaredIsMissingCapabilityWith400() {
        // basic/index.mdx: "the server MUST return a MissingRequiredClientCapabilityError (-32021) whose
        // data.requiredCapabilities lists the missing capabilities. On HTTP, the response status MUST be 400 Bad Request."
        // tasks.md, "Protocol Errors": "Servers MUST return this error for non-declaring clients issuing tasks/get,
        // tasks/update, and tasks/cancel requests."
        String taskId = UUID.randomUUID().toString();
        for (String method : List.of("tasks/get", "tasks/update", "tasks/cancel")) {
            JsonNode answer = answered(400, request(1, method, stateless(params().put("taskId", taskId), noCapabilities())),
                    routing(method, taskId));
            assertThat(answer.at("/error/code").asInt()).as(method).isEqualTo(-32021);
            assertThat(answer.at("/error/data/requiredCapabilities/extensions/io.modelcontextprotocol~1tasks").isObject())
                    .as(method).isTrue();
        }
        verify(gate, never()).decide(any());
    }

    @Test
    void aTaskRequestWhoseMcpNameIsNotItsTaskIdIsRefused() {
        // tasks.md, "Streamable HTTP: Routing Headers": "When tasks/get, tasks/update, or tasks/cancel is sent over the
        // Streamable HTTP transport, the client MUST set the Mcp-Name header to the value of params.taskId."
        ObjectNode tasks = params();
        tasks.putObject("extensions").putObject("io.modelcontextprotocol/tasks");
        String taskId = UUID.randomUUID().toString();
        for (String method : List.of("tasks/get", "tasks/update", "tasks/cancel")) {
            String body = request(1, method, stateless(params().put("taskId", taskId), tasks));
            assertThat(answered(400, body, routing(method, UUID.randomUUID().toString())).at("/error/code").asInt())
                    .as(method).isEqualTo(-32020);
            assertThat(answered(400, body, routing(method, null)).at("/error/code").asInt()).as(method).isEqualTo(-32020);
        }
        verify(withdrawals, never()).withdraw(any(), any(), anyString(), anyString(), anyString());
        nothingWasDone("none");
    }

    @Test
    void aBase64McpNameIsComparedDecoded() {
        // "Value Encoding": "servers MUST decode an encoded Mcp-Name or Mcp-Param-{Name} value before comparing it to
        // the corresponding request body value during Server Validation."
        decides(outcome(Decision.ALLOW, "fine"));
        String marker = UUID.randomUUID().toString();
        String body = request(9, "tools/call", stateless(call("list_repos", marker), noCapabilities()));
        assertThat(answered(200, body, routing("tools/call", encoded("list_repos")))
                .at("/result/content/0/text").asString()).isEqualTo("list_repos done " + marker);
        // the encoding of another name is that other name; a value that is not Base64 is malformed
        assertThat(answered(400, body, routing("tools/call", encoded("delete_repo"))).at("/error/code").asInt())
                .isEqualTo(-32020);
        assertThat(answered(400, body, routing("tools/call", "=?base64?not base64!?=")).at("/error/code").asInt())
                .isEqualTo(-32020);
        assertThat(UPSTREAM.calls()).containsOnlyOnce("list_repos " + marker);
    }

    @Test
    void aMethodTheGateDoesNotServeIs404() {
        // "If the server does not implement the requested RPC method, it MUST respond with 404 Not Found and a
        // JSON-RPC error with code -32601 (Method not found)."
        JsonNode answer = answered(404, request(1, "no/such", stateless(params(), noCapabilities())), routing("no/such", null));
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32601);
        // tasks/result and tasks/list are 2025-11-25's; the extension has neither
        ObjectNode tasks = params();
        tasks.putObject("extensions").putObject("io.modelcontextprotocol/tasks");
        assertThat(answered(404, request(2, "tasks/list", stateless(params(), tasks)), routing("tasks/list", null))
                .at("/error/code").asInt()).isEqualTo(-32601);
    }

    @Test
    void aClientThatAcceptsEventsGetsARefusalAsJsonWithItsStatusAndAnAnswerAsAnEvent() {
        // "If the body is a JSON-RPC request, the server MUST return either Content-Type: application/json ... or
        // Content-Type: text/event-stream": a refusal has its status, so it is the JSON answer
        decides(outcome(Decision.ALLOW, "fine"));
        String marker = UUID.randomUUID().toString();
        http.post().uri(PATH).contentType(MediaType.APPLICATION_JSON).accept(MediaType.APPLICATION_JSON, MediaType.TEXT_EVENT_STREAM)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey).headers(h -> headers(h, routing("no/such", null)))
                .bodyValue(request(1, "no/such", stateless(params(), noCapabilities()))).exchange()
                .expectStatus().isNotFound().expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON);
        List<ServerSentEvent<String>> events = http.post().uri(PATH).contentType(MediaType.APPLICATION_JSON)
                .accept(MediaType.APPLICATION_JSON, MediaType.TEXT_EVENT_STREAM)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey).headers(h -> headers(h, routing("tools/call", "list_repos")))
                .bodyValue(request(2, "tools/call", stateless(call("list_repos", marker), noCapabilities()))).exchange()
                .expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
                .getResponseBody().collectList().block(Duration.ofSeconds(20));
        assertThat(events).hasSize(1);
        assertThat(IngressJson.REQUESTS.readTree(events.get(0).data()).at("/result/content/0/text").asString())
                .isEqualTo("list_repos done " + marker);
    }

    @Test
    void aBatchIsRefused() {
        // "The body of the HTTP POST MUST be a single JSON-RPC request or notification."
        String one = request(1, "tools/list", stateless(params(), noCapabilities()));
        JsonNode batch = answered(400, "[" + one + "," + one + "]", routing("tools/list", null));
        assertThat(batch.at("/error/code").asInt()).isEqualTo(-32600);
        assertThat(batch.has("id")).as("2026-07-28's error response omits an id it cannot name").isFalse();
        nothingWasDone("none");
    }

    @Test
    void aSessionIdIsIgnored() {
        // "Backward Compatibility": "An Mcp-Session-Id header on a request: ignore it, and do not mint or echo session
        // IDs." (a server of this revision only SHOULD; the gate serves 2025-11-25 sessions too, but a 2026-07-28
        // request has none)
        decides(outcome(Decision.ALLOW, "fine"));
        post(request(1, "tools/list", stateless(params(), noCapabilities())), "MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", "tools/list", "Mcp-Session-Id", "not-a-session")
                .expectStatus().isOk().expectHeader().doesNotExist("Mcp-Session-Id");
    }

    @Test
    void twentyTwentyFiveElevenRequestsNeedNoneOfThis() {
        // a session's requests (2025-11-25 and older) carry no _meta version and no routing headers, as before
        decides(outcome(Decision.ALLOW, "fine"));
        String marker = UUID.randomUUID().toString();
        var initialized = post(request(1, "initialize", params().put("protocolVersion", "2025-11-25")))
                .expectStatus().isOk().expectBody().returnResult();
        String session = initialized.getResponseHeaders().getFirst("Mcp-Session-Id");
        assertThat(rpc(request(2, "tools/call", call("list_repos", marker)), "Mcp-Session-Id", session,
                "MCP-Protocol-Version", "2025-11-25").at("/result/content/0/text").asString())
                .isEqualTo("list_repos done " + marker);
        assertThat(rpc(request(3, "no/such", null), "Mcp-Session-Id", session).at("/error/code").asInt())
                .as("answered 200 as before").isEqualTo(-32601);
    }

    private static String encoded(String value) {
        return "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?=";
    }

    private static void headers(HttpHeaders target, String... pairs) {
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            target.add(pairs[i], pairs[i + 1]);
        }
    }
}
