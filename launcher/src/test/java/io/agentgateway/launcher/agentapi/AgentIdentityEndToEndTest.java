package io.agentgateway.launcher.agentapi;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.ProxyTestSupport;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 16 item 5 through the running gateway: an API key bound to an agent id acts only as that agent (403 for any
 * other {@code X-Agent-Id} or {@code agentId}, decided by the stream in log order), acts as it when the request names
 * none, the audit entry says whether the agent was bound or only asserted, and a policy can ask for a bound identity.
 */
class AgentIdentityEndToEndTest {
    private static final Duration PROJECTED = Duration.ofSeconds(20);
    private static final String REFUSAL = "This API key is bound to agent 'release-bot' and cannot act as agent 'deploy-bot'"
            + " (X-Agent-Id / agentId); send the bound agent id or none";

    @Test
    void aBoundKeyActsOnlyAsItsAgentAndTheAuditSaysBoundOrAsserted() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String bound = issueKey(ws, Map.of("name", "release", "scopes", List.of("evaluate", "proxy"), "agentId", "release-bot"));

        // another agent, by the body's agentId or by the header: refused with the reason, nothing decided
        var byBody = client().send("POST", "/functions/v1/evaluate-action", bound, action("deploy-bot"));
        assertThat(byBody.status()).as(byBody.rawBody()).isEqualTo(403);
        assertThat(byBody.text("error")).isEqualTo(REFUSAL);
        var byHeader = client().send("POST", "/functions/v1/evaluate-action", bound, action(null), Map.of("X-Agent-Id", "deploy-bot"));
        assertThat(byHeader.status()).isEqualTo(403);
        assertThat(byHeader.text("error")).isEqualTo(REFUSAL);

        // no agent named: the bound one acts, and the audit says so
        var unnamed = client().send("POST", "/functions/v1/evaluate-action", bound, action(null));
        assertThat(unnamed.status()).as(unnamed.rawBody()).isEqualTo(200);
        JsonNode boundEntry = auditEntry(ws, unnamed.text("correlationId"));
        assertThat(boundEntry.get("agentId").asString()).isEqualTo("release-bot");
        assertThat(boundEntry.get("agentIdentity").asString()).isEqualTo("bound");

        // the workspace's own key is bound to nobody: naming release-bot only asserts it
        var asserted = client().send("POST", "/functions/v1/evaluate-action", ws.apiKey(), action("release-bot"));
        assertThat(asserted.status()).isEqualTo(200);
        assertThat(auditEntry(ws, asserted.text("correlationId")).get("agentIdentity").asString()).isEqualTo("asserted");

        // and the proxy holds the header to the same binding: nothing reaches the upstream
        ProxyTestSupport.connect(ws, "docs", Map.of("base_url", GatewayHarness.upstream().baseUrl() + "/docs-" + ws.id()));
        var proxied = client().send("GET", "/functions/v1/gateway-proxy/docs/pages/1", bound, null, Map.of("X-Agent-Id", "deploy-bot"));
        assertThat(proxied.status()).as(proxied.rawBody()).isEqualTo(403);
        assertThat(proxied.rawBody()).contains("bound to agent 'release-bot'");
    }

    @Test
    void aPolicyCanRequireABoundIdentity() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        var policy = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), Map.of(
                "name", "release-bot may merge, if it is release-bot", "priority", 1, "decision", "allow",
                "match", Map.of("actions", List.of("pull_request.merge"), "agentIds", List.of("release-bot"),
                        "agentIdentity", "bound")));
        assertThat(policy.status()).as(policy.rawBody()).isEqualTo(201);
        String bound = issueKey(ws, Map.of("name", "release", "scopes", List.of("evaluate"), "agentIdPattern", "release-*"));

        Map<String, Object> merge = new HashMap<>(Map.of("tool", "code_host", "action", "pull_request.merge", "riskLevel", "high"));
        merge.put("agentId", "release-bot");
        var byBoundKey = client().send("POST", "/functions/v1/evaluate-action", bound, merge);
        assertThat(byBoundKey.text("decision")).as(byBoundKey.rawBody()).isEqualTo("allow");
        var byAnyKey = client().send("POST", "/functions/v1/evaluate-action", ws.apiKey(), merge);
        assertThat(byAnyKey.text("decision")).as("an asserted release-bot gets the default for high risk")
                .isEqualTo("require_approval");

        var shown = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), null);
        assertThat(shown.body().at("/items/0/match/agentIdentity").asString()).isEqualTo("bound");
        var refused = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), Map.of(
                "name", "x", "priority", 2, "decision", "allow", "match", Map.of("agentIdentity", "claimed")));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("error")).isEqualTo("match.agentIdentity must be one of: bound, asserted");
    }

    private static Map<String, Object> action(String agentId) {
        Map<String, Object> body = new HashMap<>(Map.of("tool", "docs", "action", "page.read", "riskLevel", "low"));
        if (agentId != null) {
            body.put("agentId", agentId);
        }
        return body;
    }

    private static String issueKey(TestWorkspace ws, Map<String, Object> body) {
        var issued = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(), body);
        assertThat(issued.status()).as(issued.rawBody()).isEqualTo(201);
        assertThat(issued.body().path("agentId").asString(null)).isEqualTo(body.get("agentId"));
        String keyId = issued.text("keyId");
        JsonNode listed = await().atMost(PROJECTED).until(() -> {
            for (JsonNode item : client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(), null)
                    .body().get("items")) {
                if (keyId.equals(item.get("keyId").asString())) {
                    return item;
                }
            }
            return null;
        }, item -> item != null);
        assertThat(listed.path("agentIdPattern").asString(null)).isEqualTo(body.get("agentIdPattern"));
        return issued.text("key");
    }

    private static JsonNode auditEntry(TestWorkspace ws, String correlationId) {
        return await().atMost(PROJECTED).until(() -> {
            JsonNode items = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/audit-log?correlationId=" + correlationId,
                    ws.ownerJwt(), null).body().get("items");
            return items != null && items.size() == 1 ? items.get(0) : null;
        }, entry -> entry != null);
    }
}
