package io.agentgateway.launcher.policies;

import static io.agentgateway.launcher.support.GatewayHarness.action;
import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static io.agentgateway.launcher.support.GatewayHarness.killSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue test 6 through the running gateway: policy order, defaults per risk, pause_tool blocking
 * only that tool, server-classified risk for code_host and issue_tracker, payload truncation.
 */
class PolicyEvaluationTest {

    private static String createPolicy(TestWorkspace ws, Map<String, Object> policy) {
        var r = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), policy);
        assertThat(r.status()).as(r.rawBody()).isIn(200, 201);
        return r.text("policyId");
    }

    @Test
    void builtInDefaultsPerRiskLevel() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(evaluate(ws, action("chat", "message.send", "low")).text("decision")).isEqualTo("allow");
        assertThat(evaluate(ws, action("chat", "message.send", "medium")).text("decision")).isEqualTo("allow");
        var high = evaluate(ws, action("chat", "channel.archive", "high"));
        assertThat(high.text("decision")).isEqualTo("require_approval");
        assertThat(high.text("approvalRequestId")).isNotBlank();
        assertThat(high.body().get("matchedPolicyId").isNull()).isTrue();
        assertThat(evaluate(ws, action("chat", "workspace.delete", "critical")).text("decision")).isEqualTo("block");

        var defaults = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/defaults", ws.ownerJwt(),
                Map.of("decisions", Map.of("medium", "require_approval")));
        assertThat(defaults.status()).isIn(200, 204);
        assertThat(evaluate(ws, action("chat", "message.send", "medium")).text("decision")).isEqualTo("require_approval");
        assertThat(evaluate(ws, action("chat", "message.send", "low")).text("decision")).isEqualTo("allow");
    }

    @Test
    void firstEnabledMatchingPolicyByPriorityWins() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String allowReads = createPolicy(ws, Map.of("name", "allow doc reads", "priority", 20, "enabled", true,
                "decision", "allow", "match", Map.of("tools", List.of("docs"), "actions", List.of("page.*"))));
        String blockAgent = createPolicy(ws, Map.of("name", "block rogue agent", "priority", 10, "enabled", true,
                "decision", "block", "match", Map.of("agentIds", List.of("rogue-*"))));
        createPolicy(ws, Map.of("name", "disabled catch-all", "priority", 1, "enabled", false,
                "decision", "block", "match", Map.of()));

        var rogue = evaluate(ws, Map.of("tool", "docs", "action", "page.read", "riskLevel", "low", "agentId", "rogue-7"));
        assertThat(rogue.text("decision")).isEqualTo("block");
        assertThat(rogue.text("matchedPolicyId")).isEqualTo(blockAgent);
        var good = evaluate(ws, Map.of("tool", "docs", "action", "page.read", "riskLevel", "critical", "agentId", "good-1"));
        assertThat(good.text("decision")).isEqualTo("allow");
        assertThat(good.text("matchedPolicyId")).isEqualTo(allowReads);
        assertThat(good.text("reason")).contains("allow doc reads");
    }

    @Test
    void pauseToolBlocksOnlyThatTool() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(killSwitch(ws, "pause_tool", "code_host").status()).isEqualTo(200);
        assertThat(evaluate(ws, action("code_host", "read", "low")).text("decision")).isEqualTo("block");
        assertThat(evaluate(ws, action("issue_tracker", "read", "low")).text("decision")).isEqualTo("allow");
        assertThat(evaluate(ws, action("chat", "message.send", "low")).text("decision")).isEqualTo("allow");
        assertThat(killSwitch(ws, "resume_tool", "code_host").status()).isEqualTo(200);
        assertThat(evaluate(ws, action("code_host", "read", "low")).text("decision")).isEqualTo("allow");
    }

    @Test
    void serverClassifiedRiskOverridesTheSuppliedOneForCodeHostAndIssueTracker() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        var merge = evaluate(ws, action("code_host", "pull_request.merge", "low"));
        assertThat(merge.text("risk_classification")).isEqualTo("server_classified");
        assertThat(merge.text("decision")).as("high -> require_approval by default").isEqualTo("require_approval");
        var fileDelete = evaluate(ws, action("code_host", "file.delete", "low"));
        assertThat(fileDelete.text("decision")).as("critical -> block").isEqualTo("block");
        var read = evaluate(ws, action("code_host", "read", "critical"));
        assertThat(read.text("decision")).as("read is low whatever was supplied").isEqualTo("allow");
        var issueDelete = evaluate(ws, action("issue_tracker", "issue.delete", "low"));
        assertThat(issueDelete.text("risk_classification")).isEqualTo("server_classified");
        assertThat(issueDelete.text("decision")).isEqualTo("require_approval");
        var mcp = evaluate(ws, action("mcp", "delete_repository", "low"));
        assertThat(mcp.text("risk_classification")).isEqualTo("caller_supplied");
        assertThat(mcp.text("decision")).isEqualTo("allow");
    }

    @Test
    void largePayloadsAreTruncatedInTheAuditLog() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        Map<String, Object> body = new HashMap<>(action("docs", "page.update", "low"));
        body.put("payload", Map.of("content", "é".repeat(20_000)));
        var r = evaluate(ws, body);
        assertThat(r.status()).isEqualTo(200);
        String auditId = r.text("auditLogId");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            try (var c = GatewayHarness.db(); var s = c.prepareStatement(
                    "select payload_truncated, octet_length(payload_excerpt), payload_bytes, risk_level, correlation_id from audit_log where id = ?::uuid")) {
                s.setString(1, auditId);
                var rs = s.executeQuery();
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBoolean(1)).isTrue();
                assertThat(rs.getInt(2)).isLessThanOrEqualTo(4096);
                assertThat(rs.getInt(3)).isGreaterThan(40_000);
                assertThat(rs.getString(4)).isEqualTo("low");
                assertThat(rs.getString(5)).isEqualTo(r.text("correlationId"));
            }
        });
    }
}
