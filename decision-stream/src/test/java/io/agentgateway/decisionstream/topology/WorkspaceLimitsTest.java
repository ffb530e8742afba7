package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.LimitReached;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-workspace limits: each is answered {@code limited} with a {@code LimitReached} audit entry and leaves the
 * state as it was; an evaluation over the open-approvals limit is decided block (fail closed) and audited; the
 * kill switch is never refused, at every limit at once.
 */
class WorkspaceLimitsTest {
    private static final DecisionLimits SMALL = DecisionLimits.defaults()
            .withOpenApprovals(2).withApiKeys(3).withPolicies(2).withPolicyBytes(600).withRepositoriesPerConnection(3)
            .withConfigurationBytes(4096);

    @TempDir
    Path stateDir;
    private DecisionDriver driver;
    private TestWorkspace workspace;

    private void start(DecisionSettings settings) {
        driver = new DecisionDriver(settings, stateDir);
        workspace = TestWorkspace.create(driver);
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void an_evaluation_over_the_open_approvals_limit_is_blocked_and_audited_naming_the_limit() {
        start(DecisionSettings.defaults().withLimits(SMALL));
        workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).event(1, ApprovalRequested.class);
        workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).event(1, ApprovalRequested.class);
        long version = state().workspaceVersion();

        Emitted third = workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH);
        assertThat(third.evaluation().decision()).isEqualTo(Decision.BLOCK);
        assertThat(third.evaluation().reason())
                .isEqualTo("Workspace holds its limit of 2 open approval requests: blocked instead of held for approval");
        assertThat(third.evaluation().approvalRequestId()).isNull();
        ActionEvaluated audit = third.only(ActionEvaluated.class);
        assertThat(audit.decision()).isEqualTo(Decision.BLOCK);
        assertThat(audit.limitReached()).isEqualTo(DecisionLimits.OPEN_APPROVALS);
        assertThat(third.notifications()).as("nobody is asked to review what was not opened").isEmpty();
        assertThat(state().openApprovalCount()).isEqualTo(2);
        assertThat(state().workspaceVersion()).isEqualTo(version);

        assertThat(workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).evaluation().decision())
                .as("what needs no approval is decided as ever").isEqualTo(Decision.ALLOW);
    }

    @Test
    void room_made_by_an_expiry_counts_whether_or_not_the_punctuator_has_run() {
        // a punctuator that never runs within the test: only the sweep a command at the limit makes can free room
        start(DecisionSettings.defaults().withLimits(SMALL).withSweepInterval(Duration.ofDays(30)));
        workspace.admin(new SetWorkspaceDefaults(null, Duration.ofMinutes(1))).ok();
        String first = workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).evaluation().approvalRequestId();
        workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).ok();
        workspace.advance(Duration.ofMinutes(2));

        Emitted after = workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH);
        assertThat(after.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(after.domainEvents()).filteredOn(ApprovalExpired.class::isInstance).hasSize(2)
                .extracting(e -> ((ApprovalExpired) e).approvalId()).contains(first);
        assertThat(state().openApprovalCount()).isEqualTo(1);
    }

    @Test
    void api_keys_over_the_limit_are_limited_and_revoked_keys_count_until_they_leave() {
        start(DecisionSettings.defaults().withLimits(SMALL).withApiKeyGrace(Duration.ofHours(1)));
        String second = UUID.randomUUID().toString();
        workspace.admin(new IssueApiKey(second, "two", TestWorkspace.sha256(second), Set.of(Scope.EVALUATE), null)).ok();
        workspace.issueKey(Set.of(Scope.EVALUATE), null);
        long version = state().workspaceVersion();

        IssueApiKey fourth = new IssueApiKey(UUID.randomUUID().toString(), "four", TestWorkspace.sha256("four"),
                Set.of(Scope.EVALUATE), null);
        LimitReached audit = workspace.admin(fourth).limited(DecisionLimits.API_KEYS);
        assertThat(audit.cap()).isEqualTo(3);
        assertThat(audit.command()).isEqualTo("issue_api_key");
        assertThat(audit.message()).startsWith("Workspace holds its limit of 3 API keys");
        assertThat(state().workspaceVersion()).as("a refusal changes nothing").isEqualTo(version);
        assertThat(state().apiKeyByHash(TestWorkspace.sha256("four"))).isEmpty();

        workspace.admin(new RevokeApiKey(second)).ok();
        workspace.admin(fourth).limited(DecisionLimits.API_KEYS);
        workspace.advance(Duration.ofHours(1).plusSeconds(1));
        workspace.admin(fourth).ok();
        assertThat(driver.apiKeys(workspace.id)).doesNotContainKey(TestWorkspace.sha256(second)).hasSize(3);
    }

    @Test
    void policies_over_the_count_or_the_size_limit_are_limited_and_a_replacement_is_not_a_new_one() {
        start(DecisionSettings.defaults().withLimits(SMALL));
        String first = workspace.upsertPolicy("one", 1, Decision.BLOCK, TestWorkspace.matchActions("a.*"));
        workspace.upsertPolicy("two", 2, Decision.BLOCK, TestWorkspace.matchActions("b.*"));

        Policy third = new Policy(UUID.randomUUID().toString(), "three", 3, true, Decision.ALLOW, PolicyMatch.any(), null);
        assertThat(workspace.admin(new UpsertPolicy(third)).limited(DecisionLimits.POLICIES).message())
                .isEqualTo("Workspace holds its limit of 2 policies (gateway.decision.limits.policies): delete a policy first");
        workspace.upsert(new Policy(first, "one, renamed", 1, true, Decision.BLOCK, PolicyMatch.any(), null));

        Policy big = new Policy(first, "big", 1, true, Decision.BLOCK, TestWorkspace.matchActions(
                IntStream.range(0, 60).mapToObj(i -> "action.number." + i).toArray(String[]::new)), null);
        LimitReached tooBig = workspace.admin(new UpsertPolicy(big)).limited(DecisionLimits.POLICY_BYTES);
        assertThat(tooBig.cap()).isEqualTo(600);
        assertThat(state().policies().get(first).name()).isEqualTo("one, renamed");
    }

    @Test
    void repositories_over_the_limit_of_a_connection_are_limited() {
        start(DecisionSettings.defaults().withLimits(SMALL));
        UpsertToolConnection four = new UpsertToolConnection(Tool.CODE_HOST,
                new ToolConnectionConfig(List.of("acme/a", "acme/b", "acme/c", "acme/d"), null, null, null),
                null, null, null, null, null, null);
        assertThat(workspace.admin(four).limited(DecisionLimits.REPOSITORIES_PER_CONNECTION).message())
                .isEqualTo("config.repos lists 4 repositories, over the limit of 3 per connection"
                        + " (gateway.decision.limits.repositories-per-connection)");
        assertThat(state().toolConnection(Tool.CODE_HOST)).isEmpty();
    }

    @Test
    void a_configuration_over_its_size_limit_is_limited_and_may_still_shrink() {
        start(DecisionSettings.defaults().withLimits(SMALL));
        List<String> added = new ArrayList<>();
        Emitted last = null;
        for (int i = 0; i < 100; i++) {
            String userId = "member-with-a-rather-long-user-id-" + i;
            last = workspace.admin(new SetMember(userId, userId + "@example.com", Role.MEMBER));
            if (last.reply().status() != ReplyStatus.OK) {
                break;
            }
            added.add(userId);
        }
        LimitReached audit = last.limited(DecisionLimits.CONFIGURATION_BYTES);
        assertThat(audit.message()).contains("over its limit of 4096 bytes");
        assertThat(state().members()).hasSize(added.size() + 1);

        assertThat(workspace.admin(new io.agentgateway.schemas.command.RemoveMember(added.get(0))).ok()).isNotNull();
    }

    @Test
    void the_kill_switch_is_never_refused_by_any_limit() {
        start(DecisionSettings.defaults().withLimits(SMALL));
        // every limit reached at once: approvals, keys, policies, configuration size
        workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).ok();
        workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).ok();
        workspace.issueKey(Set.of(Scope.EVALUATE), null);
        workspace.issueKey(Set.of(Scope.EVALUATE), null);
        workspace.upsertPolicy("one", 1, Decision.REQUIRE_APPROVAL, TestWorkspace.matchActions("page.*"));
        workspace.upsertPolicy("two", 2, Decision.BLOCK, TestWorkspace.matchActions("b.*"));
        for (int i = 0; workspace.admin(new SetMember("member-" + i + "-padding-padding-padding", "m" + i + "@example.com",
                Role.MEMBER)).reply().status() == ReplyStatus.OK; i++) {
            assertThat(i).as("the configuration limit is reached").isLessThan(200);
        }
        assertThat(state().openApprovalCount()).isEqualTo(2);
        assertThat(state().apiKeyCount()).isEqualTo(3);

        for (KillSwitchAction action : List.of(KillSwitchAction.PAUSE_TOOL, KillSwitchAction.ENABLE)) {
            CommandEnvelope press = workspace.envelope(workspace.owner,
                    new SetKillSwitch(action, action == KillSwitchAction.PAUSE_TOOL ? Tool.MCP : null));
            Emitted pressed = driver.send(press);
            pressed.ok();
            assertThat(pressed.only(KillSwitchChanged.class).action()).isEqualTo(action);
        }
        assertThat(state().killSwitchEnabled()).isTrue();
        assertThat(workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).evaluation().reason())
                .isEqualTo("Workspace kill switch is enabled");
        workspace.admin(new SetKillSwitch(KillSwitchAction.DISABLE, null)).ok();
        assertThat(state().killSwitchEnabled()).isFalse();
    }

    private io.agentgateway.decisioncore.state.WorkspaceState state() {
        return driver.workspaceStates().get(workspace.id);
    }
}
