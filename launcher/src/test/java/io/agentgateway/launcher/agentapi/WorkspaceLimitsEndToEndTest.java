package io.agentgateway.launcher.agentapi;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A per-workspace limit of the decision stream through the running gateway: 429 with the documented JSON error
 * body naming the limit, and an audit log entry of kind {@code limit_reached}. The harness runs with
 * {@code gateway.decision.limits.repositories-per-connection=20}.
 */
class WorkspaceLimitsEndToEndTest {

    @Test
    void aConnectionOverTheRepositoriesLimitIs429AndAudited() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        List<String> repos = IntStream.range(0, 21).mapToObj(i -> "acme/repo-" + i).toList();

        var refused = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/code_host", ws.ownerJwt(),
                Map.of("config", Map.of("repos", repos)));
        assertThat(refused.status()).as(refused.rawBody()).isEqualTo(429);
        assertThat(refused.body().get("ok").booleanValue()).isFalse();
        assertThat(refused.text("error")).isEqualTo("config.repos lists 21 repositories, over the limit of 20 per connection"
                + " (gateway.decision.limits.repositories-per-connection)");
        assertThat(refused.text("correlationId")).isNotBlank();

        JsonNode entry = await().atMost(Duration.ofSeconds(15)).until(() -> limitEntry(ws), e -> e != null);
        assertThat(entry.get("action").asString()).isEqualTo("upsert_tool_connection");
        assertThat(entry.get("reason").asString()).isEqualTo(refused.text("error"));

        var allowed = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/code_host", ws.ownerJwt(),
                Map.of("config", Map.of("repos", repos.subList(0, 20))));
        assertThat(allowed.status()).as(allowed.rawBody()).isEqualTo(200);
    }

    private static JsonNode limitEntry(TestWorkspace ws) {
        var page = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/audit-log?limit=50", ws.ownerJwt(), null);
        for (JsonNode item : page.body().get("items")) {
            if ("limit_reached".equals(item.path("kind").asString(null))) {
                return item;
            }
        }
        return null;
    }
}
