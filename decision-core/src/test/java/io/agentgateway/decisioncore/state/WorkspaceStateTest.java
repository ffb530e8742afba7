package io.agentgateway.decisioncore.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.kafka.JsonSerde;
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
    private static final JsonSerde<WorkspaceConfig> CONFIG = new JsonSerde<>(WorkspaceConfig.class);
    private static final JsonSerde<PendingApproval> APPROVAL = new JsonSerde<>(PendingApproval.class);
    private static final JsonSerde<ApiKeyGrant> KEY = new JsonSerde<>(ApiKeyGrant.class);
    private static final JsonSerde<WorkspaceCounters> COUNTERS = new JsonSerde<>(WorkspaceCounters.class);
    private static final Instant AT = Instant.parse("2026-03-01T10:00:00Z");

    @Test
    void the_configuration_survives_its_store_serde_unchanged() {
        WorkspaceState state = WorkspaceState.absent(Duration.ofHours(24))
                .created("Acme", "u1", new Member("u1@example.com", Role.OWNER))
                .withKillSwitch(true, Set.of(Tool.MCP, Tool.CHAT))
                .withPolicy(new Policy("p2", "allow", 2, true, Decision.ALLOW, PolicyMatch.any(), null))
                .withPolicy(new Policy("p1", "block", 1, true, Decision.BLOCK, PolicyMatch.any(), "d"))
                .withDefaults(Map.of(RiskLevel.LOW, Decision.REQUIRE_APPROVAL), Duration.ofMinutes(5))
                .withNotifications(new NotificationSettings("v1.sealed", false))
                .withToolConnection(new ToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(List.of("acme/api"), "acme", null, null),
                        SealedSecret.of("v1.token"), SealedSecret.of("v1.secret"), null, null, null, "https://api.example"))
                .withToolConnection(new ToolConnection(Tool.MCP, ToolConnectionConfig.none(), null, null,
                        "https://mcp.example/sse", McpAuthType.TOKEN, McpTransport.SSE, null));

        WorkspaceConfig read = CONFIG.deserialize("t", CONFIG.serialize("t", state.config()));
        assertThat(read).isEqualTo(state.config());
        assertThat(read.policySetVersion()).isEqualTo(3);
        assertThat(read.policies().enabledInOrder()).extracting(Policy::id).containsExactly("p1", "p2");
        assertThat(new String(CONFIG.serialize("t", read))).as("the same value is the same bytes")
                .isEqualTo(new String(CONFIG.serialize("t", state.config())));
    }

    @Test
    void entries_and_counters_survive_their_store_serdes() {
        PendingApproval approval = PendingApproval.opened(AT.plusSeconds(300), "e".repeat(64), Tool.CODE_HOST,
                "pull_request.merge", HeldCallKind.HTTP_REQUEST).approved(Duration.ofHours(1)).claimedBy("executor-1");
        assertThat(APPROVAL.deserialize("t", APPROVAL.serialize("t", approval))).isEqualTo(approval);
        ApiKeyGrant grant = new ApiKeyGrant("k1", "ci", Set.of(Scope.PROXY, Scope.EVALUATE), AT.plusSeconds(60), AT);
        assertThat(KEY.deserialize("t", KEY.serialize("t", grant))).isEqualTo(grant);
        WorkspaceCounters counters = new WorkspaceCounters(7, 3, 100, 5);
        assertThat(COUNTERS.deserialize("t", COUNTERS.serialize("t", counters))).isEqualTo(counters);
    }

    @Test
    void stored_defaults_missing_a_level_fall_back_to_the_built_in_one() {
        WorkspaceConfig read = CONFIG.deserialize("t",
                "{\"exists\":true,\"approvalTtl\":\"PT1H\",\"defaults\":{\"low\":\"block\"}}".getBytes());
        assertThat(read.defaults()).containsEntry(RiskLevel.LOW, Decision.BLOCK).containsEntry(RiskLevel.CRITICAL, Decision.BLOCK)
                .hasSize(4);
        assertThat(read.notifications()).isEqualTo(NotificationSettings.initial());
        assertThat(read.toolConnections()).isEmpty();
        assertThat(read.policies()).isEqualTo(PolicySet.EMPTY);
    }

    @Test
    void unchanged_policies_and_defaults_keep_the_policy_set_version() {
        Policy policy = new Policy("p1", "block", 1, true, Decision.BLOCK, PolicyMatch.any(), null);
        WorkspaceState once = WorkspaceState.absent(Duration.ofHours(1)).withPolicy(policy);
        assertThat(once.withPolicy(policy).policySetVersion()).isEqualTo(once.policySetVersion());
        assertThat(once.withDefaults(Map.of(RiskLevel.LOW, Decision.ALLOW), null).policySetVersion())
                .isEqualTo(once.policySetVersion());
    }

    @Test
    void entries_written_overlay_the_stored_ones_and_count_once() {
        InMemoryWorkspace workspace = new InMemoryWorkspace(Duration.ofHours(1));
        WorkspaceState before = workspace.state();
        PendingApproval pending = PendingApproval.opened(AT, "d".repeat(64), Tool.DOCS, "page.publish", null);
        WorkspaceState opened = before.withApproval("a1", pending).withApproval("a1", pending)
                .withApiKey("h1", new ApiKeyGrant("k1", "ci", Set.of(Scope.EVALUATE), null, null));
        assertThat(opened.openApprovalCount()).as("the same id twice is one approval").isEqualTo(1);
        assertThat(opened.apiKeyCount()).isEqualTo(1);
        assertThat(opened.apiKeyHashOf("k1")).contains("h1");
        assertThat(before.approval("a1")).as("the state it was derived from is unchanged").isEmpty();

        WorkspaceState saved = workspace.save(before, opened);
        assertThat(saved.workspaceVersion()).isEqualTo(1);
        assertThat(saved.counters().configVersion()).as("no configuration change").isZero();
        WorkspaceState reread = workspace.state();
        assertThat(reread.approval("a1")).contains(pending);
        assertThat(reread.apiKeyByHash("h1")).isPresent();

        WorkspaceState ended = reread.withoutApproval("a1").withoutApproval("a1").withoutApiKey("h1");
        assertThat(ended.openApprovalCount()).isZero();
        assertThat(ended.apiKeyCount()).isZero();
        assertThat(ended.approval("a1")).isEmpty();
        assertThat(ended.apiKeyHashOf("k1")).isEmpty();
        workspace.save(reread, ended);
        assertThat(workspace.approvals()).isEmpty();
        assertThat(workspace.apiKeys()).isEmpty();
        assertThat(workspace.state().workspaceVersion()).isEqualTo(2);
    }

    @Test
    void a_state_that_changed_nothing_is_stored_as_it_was() {
        InMemoryWorkspace workspace = new InMemoryWorkspace(Duration.ofHours(1));
        WorkspaceState before = workspace.state();
        assertThat(workspace.save(before, before.withKillSwitch(false, Set.of()))).isSameAs(before);
        WorkspaceState created = workspace.save(before, before.created("Acme", "u1", new Member(null, Role.OWNER)));
        assertThat(created.workspaceVersion()).isEqualTo(1);
        assertThat(created.counters().configVersion()).isEqualTo(1);
    }

    @Test
    void an_approval_is_swept_at_its_expiry_while_pending_and_at_forget_at_once_approved() {
        PendingApproval pending = PendingApproval.opened(AT, "d".repeat(64), Tool.DOCS, "page.publish", HeldCallKind.HTTP_REQUEST);
        assertThat(pending.sweepAt()).isEqualTo(AT);
        assertThat(pending.approved(Duration.ofHours(2)).sweepAt()).isEqualTo(AT.plus(Duration.ofHours(2)));
        assertThat(pending.approved(Duration.ofHours(2)).claimedBy("x").sweepAt()).isEqualTo(AT.plus(Duration.ofHours(2)));
    }

    @Test
    void a_key_leaves_a_grace_period_after_it_ended() {
        Duration grace = Duration.ofDays(1);
        assertThat(new ApiKeyGrant("k", null, Set.of(Scope.EVALUATE), null, null).removableAt(grace)).isEmpty();
        assertThat(new ApiKeyGrant("k", null, Set.of(Scope.EVALUATE), AT, null).removableAt(grace)).contains(AT.plus(grace));
        assertThat(new ApiKeyGrant("k", null, Set.of(Scope.EVALUATE), AT.plusSeconds(60), AT).removableAt(grace))
                .as("revoked before it would have expired").contains(AT.plus(grace));
        assertThat(new ApiKeyGrant("k", null, Set.of(Scope.EVALUATE), AT, AT.plusSeconds(60)).removableAt(grace))
                .as("revoked after it had expired").contains(AT.plus(grace));
    }
}
