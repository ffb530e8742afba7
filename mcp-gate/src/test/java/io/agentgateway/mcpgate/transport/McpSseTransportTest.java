package io.agentgateway.mcpgate.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.mcpgate.McpGateSliceTest;
import io.agentgateway.schemas.Decision;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

/**
 * The HTTP+SSE transport (MCP 2024-11-05) at the gate's URL, with the decision stream stubbed at the module's
 * boundary: the stream names the session's POST endpoint, each POST is answered 202 and its answer arrives on the
 * stream, a session is bound to the key that opened it, and a Streamable HTTP client's GET is told 405.
 */
class McpSseTransportTest extends McpGateSliceTest {

    private Flux<ServerSentEvent<String>> open() {
        return http.get().uri(PATH).accept(MediaType.TEXT_EVENT_STREAM)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey).exchange()
                .expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {}).getResponseBody();
    }

    @Test
    void aPostToTheSessionIsAccepted202AndItsAnswerArrivesOnTheStream() {
        decides(outcome(Decision.ALLOW, "fine"));
        Flux<ServerSentEvent<String>> stream = open().filter(event -> event.event() != null).cache();
        ServerSentEvent<String> endpoint = stream.blockFirst(Duration.ofSeconds(10));
        assertThat(endpoint.event()).isEqualTo("endpoint");
        assertThat(endpoint.data()).startsWith(PATH + "?sessionId=");

        String marker = UUID.randomUUID().toString();
        http.post().uri(endpoint.data()).contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey)
                .bodyValue(request(3, "tools/call", call("list_repos", marker))).exchange().expectStatus().isAccepted();
        ServerSentEvent<String> message = stream.filter(event -> "message".equals(event.event()))
                .blockFirst(Duration.ofSeconds(10));
        JsonNode answer = IngressJson.REQUESTS.readTree(message.data());
        assertThat(answer.get("id").asInt()).isEqualTo(3);
        assertThat(answer.at("/result/content/0/text").asString()).isEqualTo("list_repos done " + marker);
    }

    @Test
    void aSessionIsBoundToTheKeyThatOpenedItAndAnUnknownOneIsNotFound() {
        // the stream stays open (cached) while the test posts: a session lives as long as its stream
        ServerSentEvent<String> endpoint = open().cache().filter(event -> "endpoint".equals(event.event()))
                .blockFirst(Duration.ofSeconds(10));
        String otherKey = ApiKeys.generate(workspace);
        assertThat(refusal(http.post().uri(endpoint.data()).contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + otherKey)
                .bodyValue(request(1, "ping", null)).exchange().expectStatus().isForbidden()))
                .isEqualTo(McpSseTransport.OTHER_KEY);
        assertThat(refusal(http.post().uri(PATH + "?sessionId=" + UUID.randomUUID()).contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey)
                .bodyValue(request(1, "ping", null)).exchange().expectStatus().isNotFound()))
                .isEqualTo(McpSseTransport.UNKNOWN_SESSION);
    }

    @Test
    void aTwentyTwentySixRequestWhoseHeadersAreNotItsBodyIsRefusedOnThePostItself() {
        // streamable-http.mdx, "Server Validation": "Servers that process the request body MUST reject requests where
        // the values specified in the headers do not match the corresponding values in the request body."
        decides(outcome(Decision.ALLOW, "fine"));
        ServerSentEvent<String> endpoint = open().cache().filter(event -> "endpoint".equals(event.event()))
                .blockFirst(Duration.ofSeconds(10));
        String marker = UUID.randomUUID().toString();
        byte[] refused = http.post().uri(endpoint.data()).contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey)
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", "delete_repo")
                .bodyValue(request(4, "tools/call", stateless(call("list_repos", marker), params()))).exchange()
                .expectStatus().isBadRequest().expectBody().returnResult().getResponseBody();
        assertThat(IngressJson.REQUESTS.readTree(refused).at("/error/code").asInt()).isEqualTo(-32020);
        verify(gate, never()).decide(any());
        assertThat(UPSTREAM.calls()).doesNotContain("list_repos " + marker);
    }

    @Test
    void aStreamableHttpClientsGetIsMethodNotAllowed() {
        http.get().uri(PATH).accept(MediaType.TEXT_EVENT_STREAM).header(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey)
                .header("MCP-Protocol-Version", "2025-03-26").exchange().expectStatus().isEqualTo(405);
    }
}
