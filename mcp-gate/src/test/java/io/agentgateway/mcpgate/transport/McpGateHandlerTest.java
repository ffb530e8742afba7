package io.agentgateway.mcpgate.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.mcpgate.McpGateSliceTest;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.core.ParameterizedTypeReference;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /functions/v1/mcp-gate/sse}, the spec's exchange and the Streamable HTTP transport, with the decision
 * stream stubbed at the module's boundary: the session it opens, the key refused as HTTP 401 with the JSON error body,
 * a decision as a JSON-RPC answer (blocked, held, allowed and run on the real upstream), the event-stream answer, and
 * the HTTP refusals (Origin, media type, unknown session).
 */
class McpGateHandlerTest extends McpGateSliceTest {

    @Test
    void initializeNegotiatesTheVersionAndOpensASealedSessionTheNextRequestUses() {
        var answer = post(request(1, "initialize", params().put("protocolVersion", "2025-06-18")))
                .expectStatus().isOk().expectHeader().exists("Mcp-Session-Id").expectBody().returnResult();
        JsonNode result = IngressJson.REQUESTS.readTree(answer.getResponseBody()).get("result");
        assertThat(result.get("protocolVersion").asString()).isEqualTo("2025-06-18");
        assertThat(result.at("/serverInfo/name").asString()).isEqualTo("service-mcp-gate");
        assertThat(result.at("/capabilities/tools").isObject()).as("the upstream's capabilities").isTrue();

        String session = answer.getResponseHeaders().getFirst("Mcp-Session-Id");
        assertThat(rpc(request(2, "ping", null), "Mcp-Session-Id", session).get("result").isObject()).isTrue();
        assertThat(refusal(post(request(3, "ping", null), "Mcp-Session-Id", session + "x").expectStatus().isNotFound()))
                .isEqualTo(McpGateHandler.UNKNOWN_SESSION);
    }

    @Test
    void aKeyTheStreamRefusesIsAnHttp401WithTheJsonErrorBodyAndNothingIsDecided() {
        when(access.authorize(eq(workspace), anyString(), any(), eq(Scope.MCP), eq(Tool.MCP)))
                .thenReturn(Mono.error(ApiException.unauthorized(ErrorMessages.INVALID_API_KEY)));
        assertThat(refusal(post(request(1, "tools/list", null)).expectStatus().isUnauthorized()))
                .isEqualTo(ErrorMessages.INVALID_API_KEY);
        http.post().uri(PATH).contentType(MediaType.APPLICATION_JSON).header(HttpHeaders.AUTHORIZATION, "Bearer not-a-key")
                .bodyValue(request(1, "ping", null)).exchange().expectStatus().isUnauthorized();
        verify(gate, never()).decide(any());
    }

    @Test
    void theHttpRefusalsComeBeforeAnythingIsRead() {
        assertThat(refusal(post(request(1, "ping", null), "Origin", "https://evil.example").expectStatus().isForbidden()))
                .isEqualTo(McpOrigins.REFUSED);
        post(request(1, "ping", null), "Origin", "http://localhost:6274").expectStatus().isOk();
        http.post().uri(PATH).contentType(MediaType.TEXT_PLAIN).header(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey)
                .bodyValue("hello").exchange().expectStatus().isEqualTo(415).expectBody().returnResult();
    }

    @Test
    void badJsonRpcIsAnsweredWithItsErrorCodeAndANotificationWith202() {
        assertThat(rpc("{not json").at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(rpc("[]").at("/error/code").asInt()).isEqualTo(-32600);
        StringBuilder batch = new StringBuilder("[");
        for (int i = 0; i < 21; i++) {
            batch.append(i == 0 ? "" : ",").append(request(i, "ping", null));
        }
        assertThat(rpc(batch.append("]").toString()).at("/error/message").asString()).contains("at most 20");
        assertThat(rpc(request(1, "no/such", null)).at("/error/code").asInt()).isEqualTo(-32601);
        post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").expectStatus().isAccepted();
    }

    @Test
    void aBlockedCallIsMinus32001NamingTheEvaluationAndNeverReachesTheUpstream() {
        decides(outcome(Decision.BLOCK, "deletes are blocked"));
        String marker = UUID.randomUUID().toString();
        JsonNode error = rpc(request(7, "tools/call", call("delete_repo", marker))).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32001);
        assertThat(error.get("message").asString()).isEqualTo("Tool call blocked by policy");
        assertThat(error.at("/data/reason").asString()).isEqualTo("deletes are blocked");
        assertThat(error.at("/data/matchedPolicyId").asString()).isEqualTo("policy-1");
        assertThat(UPSTREAM.calls()).doesNotContain("delete_repo " + marker);
    }

    @Test
    void anAllowedCallRunsOnTheUpstreamOnceAndAHeldOneIsTheSpecsTextItem() {
        decides(outcome(Decision.ALLOW, "fine"));
        String marker = UUID.randomUUID().toString();
        JsonNode result = rpc(request(8, "tools/call", call("list_repos", marker))).get("result");
        assertThat(result.at("/content/0/text").asString()).isEqualTo("list_repos done " + marker);
        assertThat(result.at("/_meta/service/status").asString()).isEqualTo("allowed");
        assertThat(UPSTREAM.calls()).containsOnlyOnce("list_repos " + marker);

        decides(outcome(Decision.REQUIRE_APPROVAL, "needs a human"));
        String heldMarker = UUID.randomUUID().toString();
        JsonNode heldResult = rpc(request(9, "tools/call", call("delete_repo", heldMarker))).get("result");
        assertThat(heldResult.at("/_meta/service/status").asString()).isEqualTo("require_approval");
        assertThat(heldResult.at("/content/0/text").asString()).contains("needs a human approval");
        assertThat(UPSTREAM.calls()).doesNotContain("delete_repo " + heldMarker);
    }

    @Test
    void aClientThatAcceptsEventsGetsTheAnswerAsOneMessageEvent() {
        decides(outcome(Decision.ALLOW, "fine"));
        String marker = UUID.randomUUID().toString();
        List<ServerSentEvent<String>> events = http.post().uri(PATH).contentType(MediaType.APPLICATION_JSON)
                .accept(MediaType.APPLICATION_JSON, MediaType.TEXT_EVENT_STREAM)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey)
                .bodyValue(request(5, "tools/call", call("list_repos", marker))).exchange()
                .expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
                .getResponseBody().collectList().block();
        assertThat(events).hasSize(1);
        assertThat(events.get(0).event()).isEqualTo("message");
        JsonNode answer = IngressJson.REQUESTS.readTree(events.get(0).data());
        assertThat(answer.get("id").asInt()).isEqualTo(5);
        assertThat(answer.at("/result/content/0/text").asString()).isEqualTo("list_repos done " + marker);
    }
}
