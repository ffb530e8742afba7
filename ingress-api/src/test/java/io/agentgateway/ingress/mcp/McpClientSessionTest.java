package io.agentgateway.ingress.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.ingress.web.IngressJson;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

/**
 * When a client session can receive nothing unasked, its answers are written as one event without a stream
 * kept open for the upstream (the cheap path); whenever something could come, the stream stays.
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
}
