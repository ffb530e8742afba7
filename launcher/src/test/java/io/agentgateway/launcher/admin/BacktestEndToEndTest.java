package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static io.agentgateway.launcher.support.GatewayHarness.killSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Back-tests through the running gateway: a history made over HTTP (a policy, the kill switch, a
 * pause, a defaults change, a deleted policy), decided by the real decision stream, then back-tested
 * through the admin API, which reads the real events topic.
 */
class BacktestEndToEndTest {
    private static TestWorkspace ws;
    private static Instant from;
    private static String mergeByBotAuditId;

    @BeforeAll
    static void history() {
        from = Instant.now().minusSeconds(1);
        ws = GatewayHarness.newWorkspace();
        var created = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), Map.of(
                "name", "no bot merges", "priority", 10, "decision", "block",
                "match", Map.of("tools", List.of("code_host"), "actions", List.of("pull_request.merge"), "agentIds", List.of("bot-*"))));
        assertThat(created.status()).as(created.rawBody()).isEqualTo(201);
        String policyId = created.text("policyId");

        var merge = evaluate(ws, action("code_host", "pull_request.merge", "bot-1"));
        assertThat(merge.text("decision")).isEqualTo("block");
        mergeByBotAuditId = merge.text("auditLogId");
        assertThat(evaluate(ws, action("code_host", "pull_request.merge", "human-1")).text("decision")).isEqualTo("require_approval");
        assertThat(evaluate(ws, Map.of("tool", "chat", "action", "message.send", "riskLevel", "low", "agentId", "bot-1"))
                .text("decision")).isEqualTo("allow");

        assertThat(killSwitch(ws, "enable", null).status()).isEqualTo(200);
        assertThat(evaluate(ws, action("code_host", "pull_request.merge", "bot-2")).text("decision")).isEqualTo("block");
        assertThat(killSwitch(ws, "disable", null).status()).isEqualTo(200);

        assertThat(killSwitch(ws, "pause_tool", "docs").status()).isEqualTo(200);
        assertThat(evaluate(ws, Map.of("tool", "docs", "action", "page.read", "riskLevel", "low")).text("decision")).isEqualTo("block");
        assertThat(killSwitch(ws, "resume_tool", "docs").status()).isEqualTo(200);

        assertThat(client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/defaults", ws.ownerJwt(),
                Map.of("decisions", Map.of("medium", "block"))).status()).isEqualTo(200);
        assertThat(evaluate(ws, Map.of("tool", "chat", "action", "message.send", "riskLevel", "medium", "agentId", "human-2"))
                .text("decision")).isEqualTo("block");

        assertThat(client().send("DELETE", "/admin/v1/workspaces/" + ws.id() + "/policies/" + policyId, ws.ownerJwt(), null)
                .status()).isEqualTo(200);
        assertThat(evaluate(ws, action("code_host", "pull_request.merge", "bot-1")).text("decision")).isEqualTo("require_approval");
    }

    @Test
    void theLivePoliciesReproduceTheHistoryAndNoPoliciesWouldOnlyLetTheBotMergeGoToApproval() {
        JsonNode report = backtestUntilAllSeen(Map.of("policies", List.of(), "from", from.toString()));

        assertThat(report.get("ok").booleanValue()).isTrue();
        assertThat(report.get("totals").toString()).isEqualTo("{\"evaluated\":7,\"changed\":1,\"unchanged\":6,\"mismatches\":0}");
        assertThat(report.get("mismatches")).isEmpty();
        assertThat(report.get("transitions").toString()).isEqualTo("[{\"from\":\"block\",\"to\":\"require_approval\",\"count\":1}]");
        JsonNode byAction = report.get("byAction").get(0);
        assertThat(byAction.get("tool").asString()).isEqualTo("code_host");
        assertThat(byAction.get("action").asString()).isEqualTo("pull_request.merge");
        assertThat(byAction.get("evaluated").asLong()).isEqualTo(4);
        assertThat(byAction.get("exampleAuditIds").get(0).asString()).isEqualTo(mergeByBotAuditId);
        assertThat(report.get("byAgent").get(0).get("agentId").asString()).isEqualTo("bot-1");
        assertThat(report.get("history").get("versionGaps").asLong()).isZero();
        assertThat(report.get("history").get("undecodable").asLong()).isZero();
    }

    @Test
    void aCandidateThatQuietsBotsInChatChangesTheBotsChatMessageToo() {
        JsonNode report = backtestUntilAllSeen(Map.of("from", from.toString(), "policies", List.of(Map.of(
                "name", "bots quiet", "priority", 1, "decision", "block",
                "match", Map.of("tools", List.of("chat"), "agentIds", List.of("bot-*"))))));

        assertThat(report.get("totals").get("changed").asLong()).isEqualTo(2);
        assertThat(report.get("totals").get("mismatches").asLong()).isZero();
        assertThat(report.get("transitions").toString()).isEqualTo(
                "[{\"from\":\"allow\",\"to\":\"block\",\"count\":1},{\"from\":\"block\",\"to\":\"require_approval\",\"count\":1}]");
        assertThat(report.get("byTool")).extracting(group -> group.get("tool").asString()).containsExactly("chat", "code_host");
    }

    @Test
    void theTableIsAnsweredForTextPlain() throws Exception {
        backtestUntilAllSeen(Map.of("policies", List.of(), "from", from.toString()));
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(GatewayHarness.gateway().baseUrl() + "/admin/v1/workspaces/" + ws.id() + "/backtests"))
                .header("Authorization", "Bearer " + ws.ownerJwt())
                .header("Content-Type", "application/json")
                .header("Accept", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{\"policies\":[],\"from\":\"" + from + "\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
        assertThat(response.body())
                .contains("Evaluated 7   would change 1   unchanged 6   reproduction mismatches 0")
                .contains("block  require_approval      1")
                .contains("code_host  pull_request.merge")
                .contains(mergeByBotAuditId)
                .doesNotContain("REPRODUCTION MISMATCHES");
    }

    @Test
    void badCandidatesAre400AndOnlyAdminsMayRunOne() {
        String path = "/admin/v1/workspaces/" + ws.id() + "/backtests";
        Map<String, Object> body = Map.of("policies", List.of(), "from", from.toString());

        var bad = client().send("POST", path, ws.ownerJwt(), Map.of("from", from.toString(),
                "policies", List.of(Map.of("name", "typo", "priority", 1, "decision", "block", "match", Map.of("tool", List.of("chat"))))));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.text("error")).isEqualTo("policies[0]: unknown field: match.tool");
        assertThat(bad.text("ok")).isEqualTo("false");

        var backwards = client().send("POST", path, ws.ownerJwt(), Map.of("policies", List.of(), "from", Instant.now().plusSeconds(60).toString()));
        assertThat(backwards.status()).isEqualTo(400);
        assertThat(backwards.text("error")).isEqualTo("from must be before to");

        assertThat(client().send("POST", path, null, body).status()).isEqualTo(401);
        var stranger = client().send("POST", path, GatewayHarness.jwt("stranger-" + ws.id(), "s@test.local"), body);
        assertThat(stranger.status()).isEqualTo(403);
        assertThat(stranger.text("error")).isEqualTo("Admin or owner role required");
    }

    /** Events are written before the reply but may become visible a little after it: wait until all seven are read. */
    private static JsonNode backtestUntilAllSeen(Map<String, Object> body) {
        JsonNode[] report = new JsonNode[1];
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
            var response = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/backtests", ws.ownerJwt(), body);
            assertThat(response.status()).as(response.rawBody()).isEqualTo(200);
            assertThat(response.body().get("totals").get("evaluated").asLong()).isEqualTo(7);
            report[0] = response.body();
        });
        return report[0];
    }

    private static Map<String, Object> action(String tool, String action, String agentId) {
        return Map.of("tool", tool, "action", action, "riskLevel", "low", "agentId", agentId);
    }
}
