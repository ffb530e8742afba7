package io.agentgateway.mcpgate;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.httpedge.web.IngressJson;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class McpAuditPayloadTest {

    @Test
    void argumentsWithinTheLimitAreThePayloadAsTheyAre() {
        ObjectNode arguments = IngressJson.RESPONSES.createObjectNode().put("path", "a/b.txt");
        assertThat(McpAuditPayload.of(arguments, 256)).isSameAs(arguments);
    }

    @Test
    void largerArgumentsBecomeASummaryWithAnExcerptThatNeverSplitsACharacter() {
        ObjectNode arguments = IngressJson.RESPONSES.createObjectNode().put("text", "é".repeat(400));
        int whole = IngressJson.RESPONSES.writeValueAsBytes(arguments).length;

        JsonNode payload = McpAuditPayload.of(arguments, 256);

        assertThat(payload.get("truncated").booleanValue()).isTrue();
        assertThat(payload.get("bytes").intValue()).isEqualTo(whole);
        String excerpt = payload.get("excerpt").asString();
        assertThat(excerpt).startsWith("{\"text\":\"é");
        assertThat(excerpt.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(256);
        assertThat(excerpt).doesNotContain("\uFFFD");
    }
}
