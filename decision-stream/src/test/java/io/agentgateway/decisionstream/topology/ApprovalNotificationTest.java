package io.agentgateway.decisionstream.topology;

import static io.agentgateway.decisionstream.topology.TestWorkspace.action;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.call.CallView;
import io.agentgateway.schemas.call.HeldCallSeal;
import io.agentgateway.schemas.call.HeldMcpToolCall;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetNotificationSettings;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.notification.ApprovalRequestNotice;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.secret.SecretBox;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 3: a pending approval queues one {@code approval_requested} notification to the workspace's
 * reviewers, with what is asked and which approval to review, and nothing the request carried besides.
 */
class ApprovalNotificationTest extends OneWorkspaceTopologyTest {
    private static final String SEALED_URL = "v1.c2VhbGVkLWJ5LXRoZS10ZXN0";
    private static final Duration TTL = Duration.ofMinutes(45);
    private static final String SECRET_IN_PAYLOAD = "ghp_secretTokenThatMustStayOutOfMailboxes";


    @BeforeEach
    void start() {
        workspace.admin(new SetWorkspaceDefaults(null, TTL)).ok();
    }

    private CommandEnvelope heldMerge() {
        return workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                action(Tool.CODE_HOST, "pull_request.merge", RiskLevel.LOW).agent("deploy-bot").resource("repository", "acme/api")
                        .payload(GatewayJson.MAPPER.readTree("{\"pr\":42,\"token\":\"" + SECRET_IN_PAYLOAD + "\"}")).build());
    }

    @Test
    void a_require_approval_decision_tells_the_admins_and_owners_what_is_asked_and_which_approval_to_review() {
        workspace.member("admin-1", Role.ADMIN);
        workspace.member("dev-1", Role.MEMBER);
        workspace.admin(new SetNotificationSettings(SEALED_URL, true)).ok();
        CommandEnvelope envelope = heldMerge();

        Emitted emitted = driver.send(envelope);

        EvaluationOutcome outcome = emitted.evaluation();
        assertThat(outcome.decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        ApprovalRequested opened = emitted.event(1, ApprovalRequested.class);
        NotificationRequested notification = emitted.notification();
        assertThat(notification.kind()).isEqualTo(NotificationRequested.KIND_APPROVAL_REQUESTED);
        assertThat(notification.notificationId()).isEqualTo(DerivedIds.notificationId(envelope.commandId()));
        assertThat(notification.workspaceId()).isEqualTo(workspace.id);
        assertThat(notification.correlationId()).isEqualTo(envelope.correlationId());
        assertThat(notification.occurredAt()).isEqualTo(envelope.acceptedAt());
        assertThat(notification.emailTo()).as("admins and owners, not plain members")
                .containsExactly("admin-1@example.com", "owner@example.com");
        assertThat(notification.sealedChatWebhookUrl()).isEqualTo(SEALED_URL);
        assertThat(notification.subject())
                .isEqualTo("Approval needed: pull_request.merge on code_host (high risk) in workspace " + workspace.name);
        assertThat(notification.text()).contains("Agent deploy-bot asks to run pull_request.merge on code_host",
                "repository acme/api", outcome.reason(), outcome.approvalRequestId(), opened.expiresAt().toString());

        ApprovalRequestNotice notice = ApprovalRequestNotice.of(notification).orElseThrow();
        assertThat(notice).isEqualTo(new ApprovalRequestNotice(outcome.approvalRequestId(), outcome.auditLogId(),
                workspace.name, "code_host", "pull_request.merge", "high", "evaluate", "deploy-bot", "Agent Seven",
                "repository", "acme/api", outcome.reason(), null, envelope.acceptedAt().plus(TTL).toString(),
                opened.callDigest(), null));
        assertThat(opened.expiresAt()).isEqualTo(envelope.acceptedAt().plus(TTL));

        assertThat(GatewayJson.MAPPER.writeValueAsString(notification)).as("the payload stays out of the notification")
                .doesNotContain(SECRET_IN_PAYLOAD).doesNotContain("\"pr\"");
    }

    @Test
    void the_held_calls_view_and_digest_reach_the_approval_event_and_the_notification_also_on_redelivery() {
        // issue 16: reviewers see what will run, as the entry point bounded and redacted it, and the digest that binds it
        CallView view = new CallView("POST", "/graphql", null, "IssueDelete",
                "mutation IssueDelete($id: String!) { issueDelete(id: $id) { success } }", "{\"id\":\"ISS-42\"}",
                null, null, null, null, 120, false, false);
        SealedHeldCall held = new SealedHeldCall(HeldCallKind.HTTP_REQUEST, "v1.c2VhbGVk", "ab".repeat(32));
        EvaluateAction base = action(Tool.ISSUE_TRACKER, "issue.delete", RiskLevel.HIGH).agent("deploy-bot")
                .source(ActionSource.PROXY).scope(Scope.EVALUATE).build();
        EvaluateAction command = new EvaluateAction(base.tool(), base.action(), base.riskLevel(), base.agentId(), null, null,
                null, null, null, ActionSource.PROXY, Scope.EVALUATE, false, held, null, view);
        CommandEnvelope envelope = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()), command);

        Emitted first = driver.send(envelope);
        ApprovalRequested opened = first.event(1, ApprovalRequested.class);
        assertThat(opened.callView()).isEqualTo(view);
        assertThat(opened.callDigest()).isEqualTo(held.digest());
        ApprovalRequestNotice notice = ApprovalRequestNotice.of(first.notification()).orElseThrow();
        assertThat(notice.call()).isEqualTo(view);
        assertThat(notice.callDigest()).isEqualTo(held.digest());
        assertThat(first.notification().details()).containsEntry("callGraphqlVariables", "{\"id\":\"ISS-42\"}");

        Emitted redelivered = driver.send(envelope);
        assertThat(redelivered.events()).as("the stored outcome takes the view from the command again").isEqualTo(first.events());
        assertThat(redelivered.notifications()).isEqualTo(first.notifications());
    }

    @Test
    void allowed_and_blocked_actions_notify_nobody() {
        Emitted allowed = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW);
        assertThat(allowed.evaluation().decision()).isEqualTo(Decision.ALLOW);
        assertThat(allowed.notifications()).isEmpty();

        Emitted blocked = workspace.evaluate(Tool.DOCS, "space.delete", RiskLevel.CRITICAL);
        assertThat(blocked.evaluation().decision()).isEqualTo(Decision.BLOCK);
        assertThat(blocked.notifications()).isEmpty();

        workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
        Emitted killed = workspace.evaluate(Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH);
        assertThat(killed.evaluation().decision()).as("the kill switch blocks what would need approval").isEqualTo(Decision.BLOCK);
        assertThat(killed.notifications()).isEmpty();
    }

    @Test
    void a_redelivered_command_re_emits_the_same_notification_id_and_opens_nothing_new() {
        CommandEnvelope envelope = heldMerge();
        Emitted first = driver.send(envelope);
        NotificationRequested notification = first.notification();
        WorkspaceState afterFirst = driver.workspaceStates().get(workspace.id);

        Emitted redelivered = driver.send(envelope);
        // the same record again (its first emission may be lost in a crash), which the notifier's ledger
        // delivers once: never a second notification with an id of its own
        assertThat(redelivered.notifications()).containsExactly(notification);
        assertThat(redelivered.events()).isEqualTo(first.events());
        assertThat(driver.workspaceStates().get(workspace.id)).isEqualTo(afterFirst);

        Emitted another = driver.send(heldMerge());
        assertThat(another.notification().notificationId()).as("a new request is a new notification")
                .isNotEqualTo(notification.notificationId());
    }

    @Test
    void with_email_switched_off_only_the_chat_channel_is_addressed() {
        workspace.admin(new SetNotificationSettings(SEALED_URL, false)).ok();
        NotificationRequested notification = driver.send(heldMerge()).notification();
        assertThat(notification.emailTo()).isEmpty();
        assertThat(notification.sealedChatWebhookUrl()).isEqualTo(SEALED_URL);
    }

    @Test
    void a_held_mcp_call_is_announced_by_name_without_its_sealed_arguments() {
        HeldCallSeal seal = new HeldCallSeal(SecretBox.fromBase64Key(Base64.getEncoder().encodeToString(new byte[32])));
        HeldMcpToolCall call = new HeldMcpToolCall("delete_repository",
                GatewayJson.MAPPER.readTree("{\"repo\":\"acme/api\",\"token\":\"" + SECRET_IN_PAYLOAD + "\"}"));
        SealedHeldCall sealed = seal.seal(Tool.MCP, "delete_repository", call);
        EvaluateAction evaluate = new EvaluateAction(Tool.MCP, "delete_repository", RiskLevel.HIGH, "mcp-agent", null,
                null, null, null, null, ActionSource.MCP, Scope.EVALUATE, false, sealed);

        Emitted emitted = workspace.evaluate(evaluate);

        NotificationRequested notification = emitted.notification();
        assertThat(notification.details()).containsEntry(ApprovalRequestNotice.SOURCE, "mcp")
                .containsEntry(ApprovalRequestNotice.ACTION, "delete_repository")
                .containsEntry(ApprovalRequestNotice.APPROVAL_REQUEST_ID, emitted.evaluation().approvalRequestId());
        assertThat(GatewayJson.MAPPER.writeValueAsString(notification))
                .doesNotContain(sealed.sealed()).doesNotContain(SECRET_IN_PAYLOAD);
        // the digest that binds the approval is shown to reviewers (issue 16): it names the call, it opens nothing
        assertThat(notification.details()).containsEntry(ApprovalRequestNotice.CALL_DIGEST, sealed.digest());
    }

    @Test
    void caller_supplied_facts_are_cut_to_a_bounded_length() {
        String longName = "n".repeat(5_000);
        EvaluateAction evaluate = new EvaluateAction(Tool.DOCS, "page.publish", RiskLevel.HIGH, "agent-7", longName,
                null, "r".repeat(5_000), null, null, ActionSource.EVALUATE, Scope.EVALUATE, false);
        NotificationRequested notification = workspace.evaluate(evaluate).notification();
        assertThat(notification.details().get(ApprovalRequestNotice.AGENT_NAME)).hasSize(256).endsWith("…");
        assertThat(notification.details().get(ApprovalRequestNotice.RESOURCE_ID)).hasSize(256);
        assertThat(notification.text()).hasSizeLessThan(1_500);
    }
}
