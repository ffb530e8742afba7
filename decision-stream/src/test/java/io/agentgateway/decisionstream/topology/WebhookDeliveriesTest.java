package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.backtest.BacktestRequest;
import io.agentgateway.backtest.HistoryReplay;
import io.agentgateway.backtest.LogSpan;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.call.CallDigest;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.event.WebhookReceived;
import io.agentgateway.schemas.secret.SealedSecret;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Webhook deliveries through the topology: deduplicated per workspace and source, evaluated, recorded once. */
class WebhookDeliveriesTest extends OneWorkspaceTopologyTest {
    private static final Actor VERIFIER = Actor.system("webhook-verifier");
    private static final SealedSecret WEBHOOK_SECRET = SealedSecret.of("v1.c2VjcmV0LW9uZQ");


    @BeforeEach
    void start() {
        connectCodeHost(workspace);
    }

    static void connectCodeHost(TestWorkspace workspace) {
        workspace.admin(new UpsertToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(List.of("acme/api"), "acme", null, null),
                null, null, null, null, SecretUpdate.keep(), SecretUpdate.set(WEBHOOK_SECRET))).ok();
    }

    static ReceiveWebhook pullRequestOpened(String deliveryId) {
        return new ReceiveWebhook(Tool.CODE_HOST, deliveryId, "pull_request", "opened", "octocat", "repository", "acme/api",
                GatewayJson.MAPPER.readTree("{\"action\":\"opened\",\"number\":1,\"repository\":{\"full_name\":\"acme/api\"}}"));
    }

    @Test
    void a_matched_delivery_is_evaluated_audited_and_recorded_as_processed() {
        Emitted emitted = workspace.as(VERIFIER, pullRequestOpened("d-1"));

        assertThat(emitted.evaluation().decision()).isEqualTo(Decision.ALLOW);
        assertThat(emitted.events()).hasSize(2);
        ActionEvaluated audit = emitted.event(0, ActionEvaluated.class);
        WebhookReceived received = emitted.event(1, WebhookReceived.class);
        assertThat(audit.source()).isEqualTo(ActionSource.WEBHOOK);
        assertThat(audit.action()).isEqualTo("pull_request.opened");
        assertThat(audit.riskLevel()).isEqualTo(RiskLevel.LOW);
        assertThat(audit.agentId()).isEqualTo("octocat");
        assertThat(audit.resourceId()).isEqualTo("acme/api");
        assertThat(received.processed()).isTrue();
        assertThat(received.decision()).isEqualTo(Decision.ALLOW);
        assertThat(received.auditLogId()).isEqualTo(audit.auditLogId()).isEqualTo(emitted.evaluation().auditLogId());
        assertThat(received.deliveryId()).isEqualTo("d-1");
        assertThat(received.webhookEventId()).isEqualTo(DerivedIds.webhookEventId(emitted.events().get(1).commandId()));
        assertThat(received.payloadExcerpt()).contains("acme/api");
        assertThat(emitted.notifications()).isEmpty();
    }

    @Test
    void a_policy_on_source_webhook_decides_the_event() {
        workspace.upsertPolicy("no merges from outside", 1, Decision.BLOCK, new PolicyMatch(Set.of(Tool.CODE_HOST),
                List.of("pull_request.*"), Set.of(), List.of(), List.of(), List.of(), Set.of(ActionSource.WEBHOOK)));

        Emitted emitted = workspace.as(VERIFIER, pullRequestOpened("d-2"));

        assertThat(emitted.evaluation().decision()).isEqualTo(Decision.BLOCK);
        assertThat(emitted.event(1, WebhookReceived.class).decision()).isEqualTo(Decision.BLOCK);
        assertThat(emitted.event(0, ActionEvaluated.class).matchedPolicyName()).isEqualTo("no merges from outside");
    }

    @Test
    void require_approval_opens_an_approval_request_bound_to_the_delivery_and_tells_the_reviewers() {
        ReceiveWebhook deleted = new ReceiveWebhook(Tool.CODE_HOST, "d-3", "repository", "deleted", "octocat",
                "repository", "acme/api", GatewayJson.MAPPER.readTree("{\"action\":\"deleted\"}"));

        Emitted emitted = workspace.as(VERIFIER, deleted);

        assertThat(emitted.evaluation().riskLevel()).isEqualTo(RiskLevel.HIGH);
        assertThat(emitted.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        String approvalId = emitted.evaluation().approvalRequestId();
        assertThat(approvalId).isEqualTo(DerivedIds.approvalId(emitted.replies().get(0).commandId()));
        assertThat(emitted.domainEvents()).hasExactlyElementsOfTypes(ActionEvaluated.class, WebhookReceived.class,
                ApprovalRequested.class);
        assertThat(emitted.event(0, ActionEvaluated.class).approvalRequestId()).isEqualTo(approvalId);
        ApprovalRequested opened = emitted.event(2, ApprovalRequested.class);
        assertThat(opened.action()).isEqualTo("repository.deleted");
        assertThat(opened.heldCall()).as("nothing to run: the event already happened upstream").isNull();
        assertThat(opened.callDigest()).isEqualTo(CallDigest.of(Tool.CODE_HOST, "repository.deleted", deleted.payload()));
        assertThat(emitted.notifications()).singleElement()
                .satisfies(n -> assertThat(n.kind()).isEqualTo(NotificationRequested.KIND_APPROVAL_REQUESTED));
    }

    @Test
    void a_delivery_seen_before_is_answered_duplicate_and_emits_nothing() {
        workspace.as(VERIFIER, pullRequestOpened("d-4")).ok();

        Emitted again = workspace.as(VERIFIER, pullRequestOpened("d-4"));

        again.refused(ReplyStatus.CONFLICT, WebhookDeliveries.DUPLICATE);
    }

    @Test
    void the_same_delivery_id_is_new_for_another_source_and_another_workspace() {
        workspace.as(VERIFIER, pullRequestOpened("d-5")).ok();
        TestWorkspace other = TestWorkspace.create(driver);
        connectCodeHost(other);

        other.as(VERIFIER, pullRequestOpened("d-5")).ok();
        Emitted issueTracker = workspace.as(VERIFIER, new ReceiveWebhook(Tool.ISSUE_TRACKER, "d-5", "Issue", "create",
                null, "team", "team-1", GatewayJson.MAPPER.readTree("{\"type\":\"Issue\"}")));

        assertThat(issueTracker.reply().status()).isEqualTo(ReplyStatus.OK);
        // no issue-tracker connection in this workspace: recorded, not evaluated
        assertThat(issueTracker.only(WebhookReceived.class).processed()).isFalse();
    }

    @Test
    void a_redelivered_command_re_emits_its_outcome_rather_than_answering_duplicate() {
        CommandEnvelope envelope = workspace.envelope(VERIFIER, pullRequestOpened("d-6"));
        Emitted first = driver.send(envelope);

        Emitted redelivered = driver.send(envelope);

        assertThat(redelivered.reply().status()).isEqualTo(ReplyStatus.OK);
        assertThat(redelivered.events()).isEqualTo(first.events());
    }

    @Test
    void a_delivery_is_remembered_for_the_retention_and_forgotten_after_it() {
        workspace.as(VERIFIER, pullRequestOpened("d-7")).ok();
        workspace.advance(Duration.ofDays(6));
        workspace.as(VERIFIER, pullRequestOpened("d-7")).refused(ReplyStatus.CONFLICT, WebhookDeliveries.DUPLICATE);

        // another delivery moves stream time on, so the store drops the old segments
        workspace.advance(Duration.ofDays(16));
        workspace.as(VERIFIER, pullRequestOpened("d-8")).ok();
        workspace.as(VERIFIER, pullRequestOpened("d-7")).ok();
    }

    @Test
    void a_captured_delivery_sent_again_under_a_new_delivery_id_is_a_duplicate_by_its_body_digest() {
        String digest = "sha256:" + "ab".repeat(32);
        Emitted first = workspace.as(VERIFIER, pullRequestOpened("d-10").withBodyDigest(digest));
        assertThat(first.evaluation()).isNotNull();

        workspace.as(VERIFIER, pullRequestOpened("d-11").withBodyDigest(digest))
                .refused(ReplyStatus.CONFLICT, WebhookDeliveries.DUPLICATE);
        // another body under a new id is new; the old id with another body is still a duplicate
        workspace.as(VERIFIER, pullRequestOpened("d-12").withBodyDigest("sha256:" + "cd".repeat(32))).ok();
        workspace.as(VERIFIER, pullRequestOpened("d-10").withBodyDigest("sha256:" + "ef".repeat(32)))
                .refused(ReplyStatus.CONFLICT, WebhookDeliveries.DUPLICATE);
    }

    @Test
    void an_unmatched_delivery_carrying_only_an_excerpt_is_recorded_with_it_and_deduplicated_by_digest() {
        String digest = "sha256:" + "12".repeat(32);
        ReceiveWebhook excerpted = pullRequestOpened("d-13").withBodyDigest(digest).asExcerpt("{\"action\":\"op", 245_760, 256);
        Emitted emitted = driver.send(new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(),
                ReceiveWebhook.NO_WORKSPACE, UUID.randomUUID().toString(), workspace.now(), TestWorkspace.REPLY_PARTITION,
                VERIFIER, excerpted));

        WebhookReceived received = emitted.only(WebhookReceived.class);
        assertThat(received.processed()).isFalse();
        assertThat(received.payloadExcerpt()).isEqualTo("{\"action\":\"op");
        assertThat(received.payloadTruncated()).isTrue();
        assertThat(received.payloadBytes()).isEqualTo(245_760);

        ReceiveWebhook sameBodyNewId = pullRequestOpened("d-14").withBodyDigest(digest).asExcerpt("{\"action\":\"op", 245_760, 256);
        driver.send(new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(),
                ReceiveWebhook.NO_WORKSPACE, UUID.randomUUID().toString(), workspace.now(), TestWorkspace.REPLY_PARTITION,
                VERIFIER, sameBodyNewId)).refused(ReplyStatus.CONFLICT, WebhookDeliveries.DUPLICATE);
    }

    @Test
    void an_unmatched_delivery_is_recorded_unprocessed_under_the_no_workspace_key() {
        CommandEnvelope envelope = new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(),
                ReceiveWebhook.NO_WORKSPACE, UUID.randomUUID().toString(), workspace.now(), TestWorkspace.REPLY_PARTITION,
                VERIFIER, pullRequestOpened("d-9"));

        Emitted emitted = driver.send(envelope);

        assertThat(emitted.reply().status()).isEqualTo(ReplyStatus.OK);
        assertThat(emitted.reply().evaluation()).isNull();
        WebhookReceived received = emitted.only(WebhookReceived.class);
        assertThat(received.processed()).isFalse();
        assertThat(received.decision()).isNull();
        assertThat(emitted.events().get(0).workspaceId()).isEqualTo(ReceiveWebhook.NO_WORKSPACE);

        CommandEnvelope replay = new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(),
                ReceiveWebhook.NO_WORKSPACE, UUID.randomUUID().toString(), workspace.now(), TestWorkspace.REPLY_PARTITION,
                VERIFIER, pullRequestOpened("d-9"));
        driver.send(replay).refused(ReplyStatus.CONFLICT, WebhookDeliveries.DUPLICATE);
    }

    @Test
    void a_workspace_whose_connection_is_gone_records_the_delivery_unprocessed() {
        workspace.admin(new DeleteToolConnection(Tool.CODE_HOST)).ok();

        Emitted emitted = workspace.as(VERIFIER, pullRequestOpened("d-10"));

        assertThat(emitted.only(WebhookReceived.class).processed()).isFalse();
    }

    @Test
    void only_the_gateway_itself_may_record_a_delivery() {
        workspace.as(workspace.owner, pullRequestOpened("d-11")).refused(ReplyStatus.FORBIDDEN,
                "Only the gateway itself may run approved calls");
        workspace.as(workspace.agent(workspace.evaluateKeyHash()), pullRequestOpened("d-12")).refused(ReplyStatus.FORBIDDEN,
                "Only the gateway itself may run approved calls");
        // the refused ones were not remembered
        workspace.as(VERIFIER, pullRequestOpened("d-11")).ok();
    }

    @Test
    void a_back_test_reproduces_every_webhook_decision() {
        workspace.upsertPolicy("no pushes", 1, Decision.BLOCK, new PolicyMatch(Set.of(), List.of("push"), Set.of(),
                List.of(), List.of(), List.of(), Set.of(ActionSource.WEBHOOK)));
        workspace.as(VERIFIER, pullRequestOpened("b-1")).ok();
        workspace.as(VERIFIER, new ReceiveWebhook(Tool.CODE_HOST, "b-2", "push", null, "octocat", "repository", "acme/api",
                GatewayJson.MAPPER.readTree("{}"))).ok();
        workspace.as(VERIFIER, new ReceiveWebhook(Tool.CODE_HOST, "b-3", "repository", "deleted", "octocat", "repository",
                "acme/api", GatewayJson.MAPPER.readTree("{}"))).ok();
        workspace.as(VERIFIER, pullRequestOpened("b-1")).refused(ReplyStatus.CONFLICT, WebhookDeliveries.DUPLICATE);

        HistoryReplay replay = new HistoryReplay(new BacktestRequest(workspace.id, List.of(), Instant.EPOCH,
                Instant.parse("2100-01-01T00:00:00Z")), 5);
        driver.eventLog().stream().filter(e -> e.workspaceId().equals(workspace.id)).forEach(replay::accept);
        BacktestReport report = replay.report(LogSpan.inMemory(driver.eventLog().size()));

        assertThat(report.totals().evaluated()).isEqualTo(3);
        assertThat(report.totals().mismatches()).isZero();
    }

    @Test
    void a_delivery_without_an_id_or_kind_is_refused() {
        workspace.as(VERIFIER, new ReceiveWebhook(Tool.CODE_HOST, " ", "push", null, null, null, null, null))
                .refused(ReplyStatus.INVALID, "deliveryId must be a non-empty string");
        workspace.as(VERIFIER, new ReceiveWebhook(Tool.CODE_HOST, "d-13", null, null, null, null, null, null))
                .refused(ReplyStatus.INVALID, "eventKind must be a non-empty string");
        workspace.as(VERIFIER, new ReceiveWebhook(Tool.CHAT, "d-14", "push", null, null, null, null, null))
                .refused(ReplyStatus.INVALID, "tool must be code_host or issue_tracker (the tools that send webhooks)");
    }
}
