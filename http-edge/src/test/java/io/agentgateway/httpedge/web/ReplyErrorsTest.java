package io.agentgateway.httpedge.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.Reply;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class ReplyErrorsTest {

    @Test
    void a_workspace_limit_is_429_with_the_streams_text() {
        ApiException limited = catchThrowableOfType(ApiException.class, () -> ReplyErrors.requireOk(
                reply(ReplyStatus.LIMITED, "Workspace holds its limit of 1000 policies (gateway.decision.limits.policies)"),
                "unauthorized"));
        assertThat(limited.status()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
        assertThat(limited.getMessage()).isEqualTo("Workspace holds its limit of 1000 policies (gateway.decision.limits.policies)");

        assertThat(catchThrowableOfType(ApiException.class, () -> ReplyErrors.requireOk(reply(ReplyStatus.LIMITED, null), "x"))
                .getMessage()).isEqualTo("Workspace limit reached");
    }

    @Test
    void every_status_but_ok_is_an_api_error() {
        for (ReplyStatus status : ReplyStatus.values()) {
            if (status == ReplyStatus.OK) {
                assertThat(ReplyErrors.requireOk(reply(status, null), "x").status()).isEqualTo(ReplyStatus.OK);
            } else if (status == ReplyStatus.STALE) {
                // decided on nothing twice: fails closed as 503, not a client error (issue 12)
                assertThat(catchThrowable(() -> ReplyErrors.requireOk(reply(status, "why"), "x")))
                        .isInstanceOf(io.agentgateway.gatewayclient.DecisionServiceUnavailableException.class);
            } else {
                assertThat(catchThrowableOfType(ApiException.class, () -> ReplyErrors.requireOk(reply(status, "why"), "x"))
                        .status().is4xxClientError()).as(status.wire()).isTrue();
            }
        }
    }

    @Test
    void an_agents_403_says_why_the_key_may_not_act() {
        // issue 16: a key bound to another agent; the admin API's 403 keeps its fixed text
        ApiException agent = catchThrowableOfType(ApiException.class, () -> ReplyErrors.requireAgentOk(
                reply(ReplyStatus.FORBIDDEN, "This API key is bound to agent 'a' and cannot act as agent 'b'")));
        assertThat(agent.status()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(agent.getMessage()).isEqualTo("This API key is bound to agent 'a' and cannot act as agent 'b'");
        assertThat(catchThrowableOfType(ApiException.class, () -> ReplyErrors.requireAgentOk(reply(ReplyStatus.UNAUTHORIZED, "x")))
                .getMessage()).isEqualTo(ErrorMessages.INVALID_API_KEY);
    }

    private static Reply reply(ReplyStatus status, String error) {
        return new Reply(Reply.CURRENT_VERSION, "c1", "corr", "ws", 0, status, error, null);
    }
}
