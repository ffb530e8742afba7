package io.agentgateway.launcher.policies;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static io.agentgateway.launcher.support.WebhookSender.CODE_HOST;
import static io.agentgateway.launcher.support.WebhookSender.gitHubHeaders;
import static io.agentgateway.launcher.support.WebhookSender.payload;
import static io.agentgateway.launcher.support.WebhookSender.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.schemas.GatewayJson;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Policy conditions through the running gateway, for evaluate-action and webhooks (the proxy: {@link
 * ConditionalProxyEndToEndTest}; the MCP gate: {@link ConditionalMcpEndToEndTest}): the six rules of docs/policies.md
 * and their evasions (each ends blocked or held), the fail-closed rule in the audit log, a condition that does not
 * compile (400 with its position), the workspace's time zone, the policy test endpoint (a sample and a recorded row
 * whose whole inputs come from the log) and a back-test with a conditional draft.
 */
class ConditionalPoliciesEndToEndTest {
    private static final Duration PROJECTED = Duration.ofSeconds(30);

    static String createPolicy(TestWorkspace ws, String name, int priority, String decision, Map<String, Object> match,
                               String condition) {
        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("name", name);
        policy.put("priority", priority);
        policy.put("decision", decision);
        policy.put("match", match);
        if (condition != null) {
            policy.put("condition", condition);
        }
        var r = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), policy);
        assertThat(r.status()).as(r.rawBody()).isIn(200, 201);
        return r.text("policyId");
    }

    /** The six rules of docs/policies.md. */
    static void sixRules(TestWorkspace ws) {
        createPolicy(ws, "no workflow edits", 1, "block", Map.of("tools", List.of("code_host"), "actions", List.of("file.write")),
                "target.path.startsWith('.github/workflows/')");
        createPolicy(ws, "hold merges into main", 2, "require_approval",
                Map.of("tools", List.of("code_host"), "actions", List.of("pull_request.merge")),
                "target.repository in ['acme/api', 'acme/payments'] && target.branch == 'main'");
        createPolicy(ws, "keep unlabelled issues", 3, "block",
                Map.of("tools", List.of("issue_tracker"), "actions", List.of("issue.delete")), "!('deletable' in target.labels)");
        createPolicy(ws, "hold external messages", 4, "require_approval",
                Map.of("tools", List.of("chat"), "actions", List.of("message.send")), "!(args.channel in ['C-ENG', 'C-OPS'])");
        createPolicy(ws, "hold large transfers", 5, "require_approval",
                Map.of("tools", List.of("mcp"), "actions", List.of("transfer_funds")), "args.amount > 1000");
        createPolicy(ws, "reads in business hours", 6, "allow", Map.of("actions", List.of("read")),
                "!(time.weekday in ['saturday', 'sunday']) && time.hour >= 9 && time.hour < 18");
        createPolicy(ws, "no other reads", 7, "block", Map.of("actions", List.of("read")), null);
        var defaults = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/defaults", ws.ownerJwt(),
                Map.of("decisions", Map.of("low", "allow", "medium", "allow", "high", "allow"), "timeZone", "Europe/Berlin"));
        assertThat(defaults.status()).as(defaults.rawBody()).isIn(200, 204);
    }

    private static GatewayHttpClient.Response evaluated(TestWorkspace ws, String tool, String action, String resourceId,
                                                         String payloadJson) {
        Map<String, Object> body = new HashMap<>(Map.of("tool", tool, "action", action, "riskLevel", "medium", "agentId", "agent-1"));
        if (resourceId != null) {
            body.put("resourceType", "repository");
            body.put("resourceId", resourceId);
        }
        if (payloadJson != null) {
            body.put("payload", GatewayJson.MAPPER.readTree(payloadJson));
        }
        var r = evaluate(ws, body);
        assertThat(r.status()).as(r.rawBody()).isEqualTo(200);
        return r;
    }

    private static String decision(GatewayHttpClient.Response r) {
        return r.text("decision");
    }

    @Test
    void evaluateActionDecidesTheSixRulesAndEveryEvasionEndsBlockedOrHeld() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        sixRules(ws);

        for (String path : List.of(".github/workflows/x.yml", ".github/./workflows/x.yml", ".github//workflows/x.yml",
                "%2egithub/workflows/x.yml", ".GITHUB/Workflows/x.yml", "src/../.github/workflows/x.yml")) {
            assertThat(decision(evaluated(ws, "code_host", "file.write", "acme/api", "{\"path\":\"" + path + "\"}"))).as(path)
                    .isEqualTo("block");
        }
        assertThat(decision(evaluated(ws, "code_host", "file.write", "acme/api", "{\"path\":\"src/app.py\"}"))).isEqualTo("allow");
        assertThat(decision(evaluated(ws, "code_host", "file.write", "acme/api", "{\"content\":\"no path\"}")))
                .as("a key missing").isEqualTo("block");

        assertThat(decision(evaluated(ws, "code_host", "pull_request.merge", "acme/api#7", "{\"base\":\"main\"}")))
                .isEqualTo("require_approval");
        assertThat(decision(evaluated(ws, "code_host", "pull_request.merge", "acme/api#7", "{\"base\":\"refs/heads/main\"}")))
                .as("a branch given as refs/heads/main").isEqualTo("require_approval");
        assertThat(decision(evaluated(ws, "code_host", "pull_request.merge", "ACME/Api#7", "{\"base\":\"MAIN\"}")))
                .as("upper case").isEqualTo("require_approval");
        assertThat(decision(evaluated(ws, "code_host", "pull_request.merge", "acme/api#7", "{\"base\":\"release\"}"))).isEqualTo("allow");
        assertThat(decision(evaluated(ws, "code_host", "pull_request.merge", "acme/docs#7", "{\"base\":\"main\"}"))).isEqualTo("allow");

        assertThat(decision(evaluated(ws, "issue_tracker", "issue.delete", null, "{\"labels\":[\"Deletable\"]}"))).isEqualTo("allow");
        assertThat(decision(evaluated(ws, "issue_tracker", "issue.delete", null, "{\"labels\":[\"bug\"]}"))).isEqualTo("block");
        assertThat(decision(evaluated(ws, "issue_tracker", "issue.delete", null, "{\"id\":\"ISS-1\"}"))).as("labels missing")
                .isEqualTo("block");

        assertThat(decision(evaluated(ws, "chat", "message.send", null, "{\"channel\":\"C-ENG\"}"))).isEqualTo("allow");
        assertThat(decision(evaluated(ws, "chat", "message.send", null, "{\"channel\":\"C-PARTNER\"}"))).isEqualTo("require_approval");
        assertThat(decision(evaluated(ws, "chat", "message.send", null, "{\"text\":\"no channel\"}"))).isEqualTo("require_approval");

        assertThat(decision(evaluated(ws, "mcp", "transfer_funds", null, "{\"amount\":1500}"))).isEqualTo("require_approval");
        assertThat(decision(evaluated(ws, "mcp", "transfer_funds", null, "{\"amount\":1500.0}"))).isEqualTo("require_approval");
        assertThat(decision(evaluated(ws, "mcp", "transfer_funds", null, "{\"amount\":20}"))).isEqualTo("allow");
        var asString = evaluated(ws, "mcp", "transfer_funds", null, "{\"amount\":\"1500\"}");
        assertThat(decision(asString)).as("a number sent as a string").isEqualTo("require_approval");
        assertThat(asString.text("reason")).contains("its condition could not be evaluated").contains("fail closed");
        // a padded body over the size a condition may read (64 KiB by default)
        assertThat(decision(evaluated(ws, "mcp", "transfer_funds", null, "{\"amount\":20,\"memo\":\"" + "x".repeat(70_000) + "\"}")))
                .isEqualTo("require_approval");

        // the audit row names the failed condition and what the fail-closed rule did
        String auditId = asString.text("auditLogId");
        JsonNode errors = await().atMost(PROJECTED).until(() -> conditionErrors(auditId), e -> e != null);
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0).get("policyName").asString()).isEqualTo("hold large transfers");
        assertThat(errors.get(0).get("countedAsMatch").booleanValue()).isTrue();
        assertThat(errors.get(0).get("error").asString()).contains("No matching overload");
        var page = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/audit-log?limit=50", ws.ownerJwt(), null);
        assertThat(page.body().get("items")).anySatisfy(item -> {
            assertThat(item.get("id").asString()).isEqualTo(auditId);
            assertThat(item.at("/conditionErrors/0/policyName").asString()).isEqualTo("hold large transfers");
        });
    }

    @Test
    void readsAreAllowedOnlyDuringBusinessHoursOfTheCommandsOwnTimeInTheWorkspacesZone() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        sixRules(ws);
        var read = evaluated(ws, "docs", "read", null, null);
        Instant acceptedAt = await().atMost(PROJECTED).until(() -> occurredAt(read.text("auditLogId")), at -> at != null);
        ZonedDateTime berlin = acceptedAt.atZone(ZoneId.of("Europe/Berlin"));
        boolean businessHours = berlin.getDayOfWeek().getValue() <= 5 && berlin.getHour() >= 9 && berlin.getHour() < 18;
        assertThat(decision(read)).isEqualTo(businessHours ? "allow" : "block");
        var defaults = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/defaults", ws.ownerJwt(), null);
        assertThat(defaults.text("timeZone")).isEqualTo("Europe/Berlin");
        var unknownZone = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/defaults", ws.ownerJwt(),
                Map.of("timeZone", "Mars/Olympus"));
        assertThat(unknownZone.status()).isEqualTo(400);
    }

    @Test
    void aConditionThatDoesNotCompileIsA400NamingItsPositionAndProblem() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String policies = "/admin/v1/workspaces/" + ws.id() + "/policies";
        var created = client().send("POST", policies, ws.ownerJwt(), Map.of("name", "bad", "priority", 1, "decision", "block",
                "condition", "tool == 1"));
        assertThat(created.status()).isEqualTo(400);
        assertThat(created.text("error")).startsWith("condition: line 1, column 6: found no matching overload for '_==_'");
        assertThat(created.text("correlationId")).isNotBlank();
        var undeclared = client().send("PUT", policies + "/" + UUID.randomUUID(), ws.ownerJwt(), Map.of("name", "bad",
                "priority", 1, "decision", "block", "condition", "args.amount > 1000 &&\n  amount > 5"));
        assertThat(undeclared.status()).isEqualTo(400);
        assertThat(undeclared.text("error")).isEqualTo("condition: line 2, column 3: undeclared reference to 'amount' (in container '')");
        var backtest = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/backtests", ws.ownerJwt(), Map.of(
                "from", "2020-01-01T00:00:00Z", "policies", List.of(Map.of("name", "draft", "priority", 1, "decision", "block",
                        "condition", "args.amount >"))));
        assertThat(backtest.status()).isEqualTo(400);
        assertThat(backtest.text("error")).startsWith("policies[0]: condition: line 1, column 14: ");
        var listed = client().send("GET", policies, ws.ownerJwt(), null);
        assertThat(listed.body().get("items")).isEmpty();
        createPolicy(ws, "ok", 1, "block", Map.of(), "args.amount > 1000");
        // the list reads the read model, which the projector writes after the stream answered
        assertThat(await().atMost(PROJECTED).until(() -> client().send("GET", policies, ws.ownerJwt(), null).body()
                .at("/items/0/condition").asString(), condition -> !condition.isEmpty())).isEqualTo("args.amount > 1000");
    }

    @Test
    void aWebhookIsDecidedOnItsWholePayload() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String org = "org-" + UUID.randomUUID().toString().substring(0, 8);
        String secret = "whsec-" + UUID.randomUUID();
        var put = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/code_host", ws.ownerJwt(),
                Map.of("config", Map.of("repos", List.of(org + "/api")), "webhook_secret", secret));
        assertThat(put.status()).as(put.rawBody()).isEqualTo(200);
        createPolicy(ws, "hold pushes to main", 1, "require_approval", Map.of("sources", List.of("webhook"), "actions", List.of("push")),
                "target.branch == 'main' && target.repository == '" + org + "/api'");
        await().atMost(PROJECTED).until(() -> count("select count(*) from tool_connections where workspace_id = ?::uuid"
                + " and tool = 'code_host' and sealed_webhook_secret is not null", ws.id()) == 1);

        byte[] main = payload("code-host-push.json", Map.of("org", org, "repo_name", "api"));
        String mainDelivery = UUID.randomUUID().toString();
        assertThat(post(CODE_HOST, main, gitHubHeaders(secret, main, "push", mainDelivery)).status()).isEqualTo(200);
        byte[] feature = new String(main, java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"ref\": \"refs/heads/main\"", "\"ref\": \"refs/heads/feature\"").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String featureDelivery = UUID.randomUUID().toString();
        assertThat(post(CODE_HOST, feature, gitHubHeaders(secret, feature, "push", featureDelivery)).status()).isEqualTo(200);

        assertThat(await().atMost(PROJECTED).until(() -> webhookDecision(mainDelivery), d -> d != null)).isEqualTo("require_approval");
        assertThat(await().atMost(PROJECTED).until(() -> webhookDecision(featureDelivery), d -> d != null)).isNotEqualTo("require_approval");
    }

    @Test
    void thePolicyTestAnswersWhichPolicyMatchesAndEachConditionForASampleAndForARecordedRow() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String tests = "/admin/v1/workspaces/" + ws.id() + "/policy-tests";
        List<Map<String, Object>> drafts = List.of(
                Map.of("name", "allow small", "priority", 1, "decision", "allow", "match", Map.of("tools", List.of("mcp")),
                        "condition", "args.amount < 100"),
                Map.of("name", "hold large", "priority", 2, "decision", "require_approval", "match", Map.of("tools", List.of("mcp")),
                        "condition", "args.amount > 1000"),
                Map.of("name", "after hours", "priority", 3, "decision", "block", "match", Map.of("tools", List.of("mcp")),
                        "condition", "time.hour >= 18"));

        var sample = client().send("POST", tests, ws.ownerJwt(), Map.of("policies", drafts, "action", Map.of("tool", "mcp",
                "action", "transfer_funds", "riskLevel", "medium", "source", "mcp", "at", "2026-01-05T19:30:00Z",
                "payload", Map.of("amount", "1500"))));
        assertThat(sample.status()).as(sample.rawBody()).isEqualTo(200);
        assertThat(sample.text("decision")).isEqualTo("require_approval");
        assertThat(sample.text("inputs")).isEqualTo("sample");
        JsonNode checks = sample.body().get("policies");
        assertThat(checks).hasSize(3);
        assertThat(checks.get(0).get("conditionError").asString()).contains("No matching overload");
        assertThat(checks.get(0).get("matched").booleanValue()).isFalse();
        assertThat(checks.get(1).get("conditionError").asString()).contains("No matching overload");
        assertThat(checks.get(1).get("matched").booleanValue()).isTrue();
        assertThat(checks.get(2).get("conditionValue").booleanValue()).as("19:30 UTC is after 18:00 in UTC").isTrue();
        assertThat(sample.body().get("conditionErrors")).hasSize(2);

        // a recorded evaluation: its whole payload read from the commands topic, not the audit row's excerpt
        Map<String, Object> body = new HashMap<>(Map.of("tool", "mcp", "action", "transfer_funds", "riskLevel", "medium",
                "agentId", "agent-1"));
        body.put("payload", Map.of("memo", "x".repeat(6_000), "amount", 5_000));
        var recorded = evaluate(ws, body);
        assertThat(recorded.status()).as(recorded.rawBody()).isEqualTo(200);
        String auditId = recorded.text("auditLogId");
        await().atMost(PROJECTED).until(() -> occurredAt(auditId) != null);
        var replayed = client().send("POST", tests, ws.ownerJwt(), Map.of("policies", drafts, "auditLogId", auditId));
        assertThat(replayed.status()).as(replayed.rawBody()).isEqualTo(200);
        assertThat(replayed.text("inputs")).isEqualTo("log");
        assertThat(replayed.text("decision")).isEqualTo("require_approval");
        assertThat(replayed.body().at("/policies/1/conditionValue").booleanValue()).isTrue();
        var unknown = client().send("POST", tests, ws.ownerJwt(), Map.of("policies", drafts, "auditLogId", UUID.randomUUID().toString()));
        assertThat(unknown.status()).isEqualTo(404);
        var both = client().send("POST", tests, ws.ownerJwt(), Map.of("policies", drafts));
        assertThat(both.status()).isEqualTo(400);
    }

    @Test
    void theBackTestDecidesConditionalDraftsOnTheWholeRecordedInputs() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String from = Instant.now().minusSeconds(5).toString();
        createPolicy(ws, "hold large transfers", 1, "require_approval", Map.of("tools", List.of("mcp")), "args.amount > 1000");
        int big = 0;
        for (int amount : new int[] {5, 50, 5_000, 20_000, 700}) {
            Map<String, Object> body = new HashMap<>(Map.of("tool", "mcp", "action", "transfer_funds", "riskLevel", "low",
                    "agentId", "agent-1"));
            body.put("payload", Map.of("memo", "y".repeat(5_000), "amount", amount));
            assertThat(evaluate(ws, body).status()).isEqualTo(200);
            big += amount > 500 ? 1 : 0;
        }
        var backtest = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/backtests", ws.ownerJwt(), Map.of(
                "from", from, "policies", List.of(Map.of("name", "block over 500", "priority", 1, "decision", "block",
                        "match", Map.of("tools", List.of("mcp")), "condition", "args.amount > 500"))));
        assertThat(backtest.status()).as(backtest.rawBody()).isEqualTo(200);
        assertThat(backtest.body().at("/totals/evaluated").asLong()).isEqualTo(5);
        assertThat(backtest.body().at("/totals/mismatches").asLong()).isZero();
        assertThat(backtest.body().at("/totals/changed").asLong()).isEqualTo(big);
        assertThat(backtest.body().at("/history/inputsMissing").asLong()).isZero();
    }

    private static JsonNode conditionErrors(String auditId) throws Exception {
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement(
                "select condition_errors::text from audit_log where id = ?::uuid")) {
            s.setString(1, auditId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getString(1) != null ? GatewayJson.MAPPER.readTree(rs.getString(1)) : null;
            }
        }
    }

    static Instant occurredAt(String auditId) throws Exception {
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement(
                "select occurred_at from audit_log where id = ?::uuid")) {
            s.setString(1, auditId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getTimestamp(1).toInstant() : null;
            }
        }
    }

    private static String webhookDecision(String deliveryId) throws Exception {
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement(
                "select decision from webhook_events where delivery_id = ?")) {
            s.setString(1, deliveryId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static long count(String sql, Object... args) throws Exception {
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
