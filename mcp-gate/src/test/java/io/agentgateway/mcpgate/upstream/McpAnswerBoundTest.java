package io.agentgateway.mcpgate.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Issue 15: an answer over the bound is seen as one (each SSE event counted on its own), and a 404 to a POST counted. */
class McpAnswerBoundTest {
    private static final int BOUND = 100;

    private static long oversizedAfter(McpAnswerBound bound, HttpMethod method, HttpStatus status, String... chunks) {
        Flux<DataBuffer> body = Flux.fromArray(chunks)
                .map(chunk -> DefaultDataBufferFactory.sharedInstance.wrap(chunk.getBytes(StandardCharsets.UTF_8)));
        ClientResponse response = ClientResponse.create(status).body(body).build();
        ClientRequest request = ClientRequest.create(method, URI.create("http://upstream/mcp")).build();
        bound.filter(request, r -> Mono.just(response))
                .flatMapMany(filtered -> filtered.body(BodyExtractors.toDataBuffers()))
                .blockLast();
        return bound.oversizedAnswers();
    }

    @Test
    void aJsonAnswerOverTheBoundIsSeenWhateverItsChunks() {
        McpAnswerBound bound = new McpAnswerBound(BOUND);
        assertThat(oversizedAfter(bound, HttpMethod.POST, HttpStatus.OK, "x".repeat(60), "x".repeat(40))).isZero();
        assertThat(oversizedAfter(bound, HttpMethod.POST, HttpStatus.OK, "x".repeat(60), "x".repeat(41))).isEqualTo(1);
    }

    @Test
    void eventsOfAStreamAreCountedOneByOne() {
        McpAnswerBound bound = new McpAnswerBound(BOUND);
        String event = "data: " + "y".repeat(80) + "\n\n";
        assertThat(oversizedAfter(bound, HttpMethod.GET, HttpStatus.OK, event, event, event.replace("\n\n", "\r\n\r\n"), event))
                .as("many small events are no large answer").isZero();
        assertThat(oversizedAfter(bound, HttpMethod.GET, HttpStatus.OK, event, "data: " + "z".repeat(60), "z".repeat(60) + "\n\n"))
                .as("one event over the bound, across chunks").isEqualTo(1);
        assertThat(bound.eventStreamHasEnded()).as("a GET's stream that ended").isTrue();
    }

    @Test
    void aNotFoundToAPostIsCountedAsAnUnknownSession() {
        McpAnswerBound bound = new McpAnswerBound(BOUND);
        oversizedAfter(bound, HttpMethod.POST, HttpStatus.NOT_FOUND, "{}");
        oversizedAfter(bound, HttpMethod.GET, HttpStatus.NOT_FOUND, "{}");
        assertThat(bound.unknownSessionAnswers()).isEqualTo(1);
        assertThat(bound.eventStreamHasEnded()).isTrue();
    }
}
