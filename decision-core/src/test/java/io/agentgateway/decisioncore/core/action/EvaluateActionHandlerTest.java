package io.agentgateway.decisioncore.core.action;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CommandDecision;
import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.core.CoreWorkspace;
import io.agentgateway.decisioncore.core.DecisionCore;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code evaluate_action} decided by the core alone (no Kafka): the key check, the decision order (kill switch,
 * paused tool, first matching policy, workspace default), the audit entry, an approval opened in the state with
 * its reviewers' notification, the open-approvals limit, and stale connection versions.
 */
class EvaluateActionHandlerTest {
    private final CoreWorkspace workspace = CoreWorkspace.create();

    @Test
    void an_allowed_evaluation_is_audited_and_changes_no_state() {
        Decided decided = workspace.evaluate(Tool.DOCS, "page.edit", RiskLevel.MEDIUM).ok();

        assertThat(decided.decision().evaluation().decision()).isEqualTo(Decision.ALLOW);
        ActionEvaluated audit = decided.event(0, ActionEvaluated.class);
        assertThat(decided.events()).hasSize(1);
        assertThat(audit.auditLogId()).isEqualTo(DerivedIds.auditLogId(decided.envelope().commandId()));
        assertThat(audit.decision()).isEqualTo(Decision.ALLOW);
        assertThat(audit.agentId()).isEqualTo("agent-7");
        assertThat(decided.decision().evaluation().auditLogId()).isEqualTo(audit.auditLogId());
        assertThat(decided.decision().notifications()).isEmpty();
        assertThat(decided.after()).as("an audit entry alone changes nothing").isSameAs(decided.before());
    }

    @Test
    void an_unknown_or_wrong_key_is_unauthorized_and_leaves_no_audit_entry() {
        workspace.as(Actor.apiKey("cd".repeat(32), "agent-7"), CoreWorkspace.action(Tool.DOCS, "page.edit", RiskLevel.LOW))
                .refused(ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
        workspace.as(workspace.owner, CoreWorkspace.action(Tool.DOCS, "page.edit", RiskLevel.LOW))
                .refused(ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
    }

    @Test
    void malformed_requests_are_invalid() {
        workspace.evaluate(new EvaluateAction(null, "page.edit", RiskLevel.LOW, "agent-7", null, null, null, null, null,
                        ActionSource.EVALUATE, Scope.EVALUATE, false))
                .refused(ReplyStatus.INVALID, "tool must be one of code_host, issue_tracker, chat, docs, internal_api, mcp");
        workspace.evaluate(CoreWorkspace.action(Tool.DOCS, " ", RiskLevel.LOW))
                .refused(ReplyStatus.INVALID, "action must be a non-empty string");
        workspace.evaluate(CoreWorkspace.action(Tool.DOCS, "page.edit", null))
                .refused(ReplyStatus.INVALID, "riskLevel must be one of low, medium, high, critical");
    }

    @Test
    void workspace_defaults_decide_by_risk_when_no_policy_matches() {
        assertThat(decisionOf(Tool.DOCS, "page.read", RiskLevel.LOW)).isEqualTo(Decision.ALLOW);
        assertThat(decisionOf(Tool.DOCS, "page.edit", RiskLevel.MEDIUM)).isEqualTo(Decision.ALLOW);
        assertThat(decisionOf(Tool.DOCS, "page.publish", RiskLevel.HIGH)).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(decisionOf(Tool.DOCS, "page.drop", RiskLevel.CRITICAL)).isEqualTo(Decision.BLOCK);
    }

    @Test
    void the_first_enabled_matching_policy_by_priority_decides_and_is_named() {
        String late = policy("late allow", 20, true, Decision.ALLOW);
        String early = policy("early block", 10, true, Decision.BLOCK);
        policy("disabled first", 1, false, Decision.REQUIRE_APPROVAL);

        Decided decided = workspace.evaluate(Tool.CHAT, "message.send", RiskLevel.LOW).ok();

        assertThat(decided.decision().evaluation().decision()).isEqualTo(Decision.BLOCK);
        assertThat(decided.decision().evaluation().matchedPolicyId()).isEqualTo(early).isNotEqualTo(late);
        assertThat(decided.event(0, ActionEvaluated.class).matchedPolicyName()).isEqualTo("early block");
    }

    @Test
    void the_kill_switch_blocks_every_tool_before_any_policy() {
        policy("allow everything", 1, true, Decision.ALLOW);
        workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CHAT)).ok();
        workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();

        for (Tool tool : Tool.values()) {
            Decided decided = workspace.evaluate(tool, "read", RiskLevel.LOW).ok();
            assertThat(decided.decision().evaluation().decision()).as(tool.wire()).isEqualTo(Decision.BLOCK);
            assertThat(decided.decision().evaluation().reason()).isEqualTo("Workspace kill switch is enabled");
            assertThat(decided.decision().evaluation().matchedPolicyId()).isNull();
        }
    }

    @Test
    void a_paused_tool_is_blocked_alone_until_resumed() {
        policy("allow everything", 1, true, Decision.ALLOW);
        workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CODE_HOST)).ok();

        Decided paused = workspace.evaluate(Tool.CODE_HOST, "read", RiskLevel.LOW).ok();
        assertThat(paused.decision().evaluation().decision()).isEqualTo(Decision.BLOCK);
        assertThat(paused.decision().evaluation().reason()).isEqualTo("Tool code_host is paused");
        assertThat(decisionOf(Tool.ISSUE_TRACKER, "read", RiskLevel.LOW)).isEqualTo(Decision.ALLOW);

        workspace.admin(new SetKillSwitch(KillSwitchAction.RESUME_TOOL, Tool.CODE_HOST)).ok();
        assertThat(decisionOf(Tool.CODE_HOST, "read", RiskLevel.LOW)).isEqualTo(Decision.ALLOW);
    }

    @Test
    void require_approval_opens_an_approval_in_the_state_and_tells_the_reviewers() {
        Decided decided = workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).ok();

        String approvalId = DerivedIds.approvalId(decided.envelope().commandId());
        assertThat(decided.decision().evaluation().approvalRequestId()).isEqualTo(approvalId);
        ApprovalRequested requested = decided.event(1, ApprovalRequested.class);
        assertThat(requested.approvalId()).isEqualTo(approvalId);
        assertThat(requested.expiresAt()).isEqualTo(decided.envelope().acceptedAt().plus(DecisionSettings.DEFAULT_APPROVAL_TTL));
        assertThat(decided.event(0, ActionEvaluated.class).approvalRequestId()).isEqualTo(approvalId);

        PendingApproval stored = workspace.memory.approvals().get(approvalId);
        assertThat(stored.status()).isEqualTo(ApprovalStatus.PENDING);
        assertThat(stored.callDigest()).isEqualTo(requested.callDigest());
        assertThat(decided.after().openApprovalCount()).isEqualTo(decided.before().openApprovalCount() + 1);
        assertThat(decided.after().workspaceVersion()).isEqualTo(decided.before().workspaceVersion() + 1);

        List<NotificationRequested> told = decided.decision().notifications();
        assertThat(told).singleElement().satisfies(n -> {
            assertThat(n.kind()).isEqualTo(NotificationRequested.KIND_APPROVAL_REQUESTED);
            assertThat(n.notificationId()).isEqualTo(DerivedIds.notificationId(decided.envelope().commandId()));
            assertThat(n.emailTo()).containsExactly("owner@example.com");
        });
    }

    @Test
    void a_workspace_at_its_open_approvals_limit_blocks_instead_and_says_so() {
        CoreWorkspace limited = CoreWorkspace.create(DecisionSettings.defaults()
                .withLimits(DecisionLimits.defaults().withOpenApprovals(1)));
        limited.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).ok();

        Decided blocked = limited.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).ok();

        assertThat(blocked.decision().evaluation().decision()).isEqualTo(Decision.BLOCK);
        assertThat(blocked.decision().evaluation().reason()).isEqualTo(
                "Workspace holds its limit of 1 open approval requests: blocked instead of held for approval");
        assertThat(blocked.event(0, ActionEvaluated.class).limitReached()).isEqualTo(DecisionLimits.OPEN_APPROVALS);
        assertThat(blocked.events()).hasSize(1);
        assertThat(blocked.decision().notifications()).isEmpty();
        assertThat(blocked.after()).isSameAs(blocked.before());
    }

    @Test
    void a_stale_connection_version_is_answered_with_nothing_recorded() {
        Decided stale = workspace.evaluate(new EvaluateAction(Tool.MCP, "search_code", RiskLevel.LOW, "agent-7", null, null,
                null, null, null, ActionSource.MCP, Scope.EVALUATE, false, null, 12L));

        stale.refused(ReplyStatus.STALE, "The workspace has no mcp connection (the request named version 12)");
        assertThat(stale.decision().connection()).isNull();
    }

    @Test
    void an_undelivered_decision_keeps_only_its_audit_entry_marked() {
        WorkspaceState before = workspace.state();
        CommandDecision decision = new DecisionCore(DecisionSettings.defaults())
                .decide(workspace.envelope(workspace.agent, CoreWorkspace.action(Tool.DOCS, "page.publish", RiskLevel.HIGH)), before);
        assertThat(decision.events()).hasSize(2);
        assertThat(decision.state()).isNotSameAs(before);

        CommandDecision undelivered = decision.undelivered();

        assertThat(undelivered.events()).singleElement()
                .isInstanceOfSatisfying(ActionEvaluated.class, a -> assertThat(a.wasUndelivered()).isTrue());
        assertThat(undelivered.notifications()).isEmpty();
        assertThat(undelivered.state()).as("no approval opened").isSameAs(before);
        assertThat(undelivered.evaluation()).isEqualTo(decision.evaluation());
    }

    private Decision decisionOf(Tool tool, String action, RiskLevel risk) {
        return workspace.evaluate(tool, action, risk).ok().decision().evaluation().decision();
    }

    private String policy(String name, int priority, boolean enabled, Decision decision) {
        String id = UUID.randomUUID().toString();
        workspace.admin(new UpsertPolicy(new Policy(id, name, priority, enabled, decision,
                new PolicyMatch(Set.of(), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of()), null))).ok();
        return id;
    }
}
