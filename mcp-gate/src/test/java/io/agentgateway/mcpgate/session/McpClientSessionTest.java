package io.agentgateway.mcpgate.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.httpedge.web.IngressJson;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * When a client session can receive nothing unasked, its answers are written as one event without a stream
 * kept open for the upstream (the cheap path); whenever something could come, the stream stays. The bound of the
 * requests its upstream may have waiting on it, and the refusals' log rate.
 */
class McpClientSessionTest {

    @Test
    void anUpstreamThatDeclaresNoNotificationsMaySendNothingUnasked() {
        assertThat(McpClientSession.mayInitiate(McpSchema.ServerCapabilities.builder().tools(false).build())).isFalse();
        assertThat(McpClientSession.mayInitiate(McpSchema.ServerCapabilities.builder()
                .tools(false).resources(false, false).prompts(false).build())).isFalse();
    }

    @Test
    void loggingListChangedOrSubscriptionsMayComeUnasked() {
        assertThat(McpClientSession.mayInitiate(McpSchema.ServerCapabilities.builder().logging().build())).isTrue();
        assertThat(McpClientSession.mayInitiate(McpSchema.ServerCapabilities.builder().tools(true).build())).isTrue();
        assertThat(McpClientSession.mayInitiate(McpSchema.ServerCapabilities.builder().prompts(true).build())).isTrue();
        assertThat(McpClientSession.mayInitiate(McpSchema.ServerCapabilities.builder().resources(true, false).build())).isTrue();
        assertThat(McpClientSession.mayInitiate(McpSchema.ServerCapabilities.builder().resources(false, true).build())).isTrue();
        assertThat(McpClientSession.mayInitiate(null)).isTrue();
    }

    @Test
    void aSessionKeepsItsStreamUntilItsUpstreamSaidNothingCanComeAndTheClientDeclaredNothingToAsk() {
        McpClientSession plain = new McpClientSession("s1", null, null);
        assertThat(plain.mayReceiveUnasked()).as("upstream not initialized yet").isTrue();
        plain.upstreamMayInitiate(false);
        assertThat(plain.mayReceiveUnasked()).isFalse();
        plain.upstreamMayInitiate(true);
        assertThat(plain.mayReceiveUnasked()).isTrue();

        McpClientSession asking = new McpClientSession("s2", McpClientSession.relayedCapabilities(
                IngressJson.RESPONSES.readTree("{\"elicitation\":{}}")), null);
        asking.upstreamMayInitiate(false);
        assertThat(asking.mayReceiveUnasked()).as("the upstream may ask this client for input").isTrue();
    }

    @Test
    void aSessionTakesServerRequestsUpToTheBoundAndAPlaceFreedIsTakenAgain() {
        McpClientSession session = new McpClientSession("s3", null, null);
        assertThat(session.openServerRequest(2)).isTrue();
        assertThat(session.openServerRequest(2)).isTrue();
        assertThat(session.openServerRequest(2)).as("over the bound: nothing taken").isFalse();
        assertThat(session.openServerRequest(2)).isFalse();
        session.serverRequestClosed();
        assertThat(session.openServerRequest(2)).isTrue();
        assertThat(session.openServerRequest(2)).isFalse();
    }

    @Test
    void aRefusalIsLoggedOnceAndAgainOnlyWhenTheIntervalHasPassed() {
        McpClientSession session = new McpClientSession("s4", null, null);
        assertThat(session.logServerRequestRefusal(Duration.ofMinutes(1))).isTrue();
        assertThat(session.logServerRequestRefusal(Duration.ofMinutes(1))).isFalse();
        assertThat(session.logServerRequestRefusal(Duration.ofMinutes(1))).isFalse();
        assertThat(session.logServerRequestRefusal(Duration.ZERO)).as("the interval has passed").isTrue();
        assertThat(new McpClientSession("s5", null, null).logServerRequestRefusal(Duration.ofMinutes(1)))
                .as("another session logs its own").isTrue();
    }
}
