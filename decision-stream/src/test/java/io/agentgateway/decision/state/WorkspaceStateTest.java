package io.agentgateway.decision.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.JsonSerde;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.secret.SealedSecret;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WorkspaceStateTest {
    private static final JsonSerde<WorkspaceState> SERDE = new JsonSerde<>(WorkspaceState.class);

    @Test
    void survives_the_store_serde_unchanged() {
        Instant at = Instant.parse("2026-03-01T10:00:00Z");
        WorkspaceState state = WorkspaceState.absent(Duration.ofHours(24))
                .created("Acme", "u1", new Member("u1@example.com", Role.OWNER))
                .withKillSwitch(true, Set.of(Tool.MCP, Tool.CHAT))
                .withPolicy(new Policy("p1", "block", 1, true, Decision.BLOCK, PolicyMatch.any(), "d"))
                .withDefaults(Map.of(RiskLevel.LOW, Decision.REQUIRE_APPROVAL), Duration.ofMinutes(5))
                .withApiKey("h".repeat(64), new ApiKeyGrant("k1", "ci", Set.of(Scope.PROXY, Scope.EVALUATE), at.plusSeconds(60), null))
                .withNotifications(new NotificationSettings("v1.sealed", false))
                .withToolConnection(new ToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(List.of("acme/api"), "acme", null, null),
                        SealedSecret.of("v1.token"), SealedSecret.of("v1.secret"), null, null, null, "https://api.example"))
                .withToolConnection(new ToolConnection(Tool.MCP, ToolConnectionConfig.none(), null, null,
                        "https://mcp.example/sse", McpAuthType.TOKEN, McpTransport.SSE, null))
                .withApproval("a1", new PendingApproval(at.plusSeconds(300), "d".repeat(64), ApprovalStatus.PENDING))
                .withApproval("a2", PendingApproval.opened(at.plusSeconds(300), "e".repeat(64), Tool.CODE_HOST,
                        "pull_request.merge", HeldCallKind.HTTP_REQUEST).approved().claimedBy("executor-1"))
                .withWorkspaceVersion(7);

        WorkspaceState read = SERDE.deserialize("t", SERDE.serialize("t", state));
        assertThat(read).isEqualTo(state);
        assertThat(read.policySetVersion()).isEqualTo(2);
    }

    @Test
    void an_approval_stored_before_tool_action_and_held_call_were_recorded_still_reads() {
        WorkspaceState read = SERDE.deserialize("t", ("{\"exists\":true,\"approvalTtl\":\"PT1H\",\"approvals\":{\"a1\":"
                + "{\"expiresAt\":\"2026-03-01T10:00:00Z\",\"callDigest\":\"" + "d".repeat(64) + "\",\"status\":\"pending\"}}}").getBytes());
        assertThat(read.approval("a1")).contains(new PendingApproval(Instant.parse("2026-03-01T10:00:00Z"), "d".repeat(64),
                ApprovalStatus.PENDING));
    }

    @Test
    void stored_defaults_missing_a_level_fall_back_to_the_built_in_one() {
        WorkspaceState read = SERDE.deserialize("t",
                "{\"exists\":true,\"approvalTtl\":\"PT1H\",\"defaults\":{\"low\":\"block\"}}".getBytes());
        assertThat(read.defaults()).containsEntry(RiskLevel.LOW, Decision.BLOCK).containsEntry(RiskLevel.CRITICAL, Decision.BLOCK)
                .hasSize(4);
        assertThat(read.notifications()).isEqualTo(NotificationSettings.initial());
        assertThat(read.toolConnections()).as("states stored before tool connections existed have none").isEmpty();
    }

    @Test
    void unchanged_policies_and_defaults_keep_the_policy_set_version() {
        Policy policy = new Policy("p1", "block", 1, true, Decision.BLOCK, PolicyMatch.any(), null);
        WorkspaceState once = WorkspaceState.absent(Duration.ofHours(1)).withPolicy(policy);
        assertThat(once.withPolicy(policy).policySetVersion()).isEqualTo(once.policySetVersion());
        assertThat(once.withDefaults(Map.of(RiskLevel.LOW, Decision.ALLOW), null).policySetVersion())
                .isEqualTo(once.policySetVersion());
    }
}
