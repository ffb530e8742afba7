package io.agentgateway.schemas.call;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Tool;
import org.junit.jupiter.api.Test;

class CallDigestTest {

    @Test
    void the_digest_does_not_depend_on_the_order_of_keys() {
        var a = GatewayJson.MAPPER.readTree("{\"b\":{\"y\":1,\"x\":[2,{\"q\":null,\"p\":true}]},\"a\":\"s\"}");
        var b = GatewayJson.MAPPER.readTree("{\"a\":\"s\",\"b\":{\"x\":[2,{\"p\":true,\"q\":null}],\"y\":1}}");
        assertThat(CallDigest.of(Tool.MCP, "create_issue", a)).isEqualTo(CallDigest.of(Tool.MCP, "create_issue", b));
    }

    @Test
    void tool_action_and_payload_each_change_the_digest() {
        var payload = GatewayJson.MAPPER.readTree("{\"a\":1}");
        String digest = CallDigest.of(Tool.MCP, "create_issue", payload);
        assertThat(digest).matches("[0-9a-f]{64}");
        assertThat(CallDigest.of(Tool.CHAT, "create_issue", payload)).isNotEqualTo(digest);
        assertThat(CallDigest.of(Tool.MCP, "create_issues", payload)).isNotEqualTo(digest);
        assertThat(CallDigest.of(Tool.MCP, "create_issue", GatewayJson.MAPPER.readTree("{\"a\":2}"))).isNotEqualTo(digest);
        assertThat(CallDigest.of(Tool.MCP, "create_issue", null)).isNotEqualTo(digest);
    }
}
