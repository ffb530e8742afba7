package io.agentgateway.agentapi.evaluate;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.gatewayclient.AnswerWrites;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

class EvaluateAnswerWritesTest {
    private final List<String> happened = new ArrayList<>();

    /** Stands in for the command gateway: holds its journal entry with whatever the exchange put in its context. */
    private Mono<ServerResponse> decide(boolean failAfterTheReply) {
        return Mono.deferContextual(context -> {
            if (!context.hasKey(AnswerWrites.CONTEXT_KEY)) {
                happened.add("released at once");
                return ServerResponse.ok().bodyValue("{}");
            }
            AnswerWrites writes = context.get(AnswerWrites.CONTEXT_KEY);
            writes.hold(() -> happened.add("released once written"), () -> happened.add("reported as lost"));
            happened.add("handed on");
            return failAfterTheReply ? Mono.error(new IllegalStateException("mapping failed"))
                    : ServerResponse.ok().bodyValue("{\"decision\":\"allow\"}");
        });
    }

    private WebTestClient client(boolean failAfterTheReply) {
        RouterFunction<ServerResponse> routes = RouterFunctions.route()
                .POST(EvaluateActionHandler.PATH, request -> decide(failAfterTheReply))
                .POST("/other", request -> decide(failAfterTheReply))
                .build();
        return WebTestClient.bindToRouterFunction(routes).webFilter(new EvaluateAnswerWrites()).build();
    }

    @Test
    void an_evaluations_entry_is_released_only_after_its_answer_was_written() {
        client(false).post().uri(EvaluateActionHandler.PATH).exchange().expectStatus().isOk();
        assertThat(happened).containsExactly("handed on", "released once written");
    }

    @Test
    void other_paths_release_as_the_reply_is_handed_on() {
        client(false).post().uri("/other").exchange().expectStatus().isOk();
        assertThat(happened).containsExactly("released at once");
    }

    @Test
    void a_failure_before_anything_was_written_is_answered_by_the_error_handler_and_releases_as_before() {
        client(true).post().uri(EvaluateActionHandler.PATH).exchange().expectStatus().is5xxServerError();
        assertThat(happened).containsExactly("handed on", "released once written");
    }
}
