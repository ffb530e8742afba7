package io.agentgateway.decisioncore.core.action;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.core.CoreWorkspace;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.call.CallDigest;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.event.WebhookReceived;
import io.agentgateway.schemas.secret.SealedSecret;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code receive_webhook} decided by the core alone (the delivery dedupe is the topology's): a delivery for a
 * connected tool is evaluated as an action of source webhook and audited, a policy on that source decides it, a
 * high-risk event opens an approval bound to the delivery, anything else is recorded unprocessed, and only the
 * gateway's verifier may send it.
 */
class ReceiveWebhookHandlerTest {
    private static final Actor VERIFIER = Actor.system("webhook-verifier");

    private final CoreWorkspace workspace = CoreWorkspace.create();
    private final long connectionVersion = workspace.admin(new UpsertToolConnection(Tool.CODE_HOST,
            new ToolConnectionConfig(List.of("acme/api"), "acme", null, null), null, null, null, null, SecretUpdate.keep(),
            SecretUpdate.set(SealedSecret.of("v1.c2VjcmV0LW9uZQ")))).ok().event(0, ToolConnectionUpserted.class).connection().version();

    private static ReceiveWebhook pullRequestOpened(String repository, Long version) {
        return new ReceiveWebhook(Tool.CODE_HOST, UUID.randomUUID().toString(), "pull_request", "opened", "octocat", "repository",
                repository, GatewayJson.MAPPER.readTree("{\"action\":\"opened\",\"repository\":{\"full_name\":\"" + repository + "\"}}"),
                version);
    }

    @Test
    void a_delivery_for_a_connected_tool_is_evaluated_and_audited() {
        Decided decided = workspace.as(VERIFIER, pullRequestOpened("acme/api", null)).ok();

        assertThat(decided.decision().evaluation().decision()).isEqualTo(Decision.ALLOW);
        ActionEvaluated audit = decided.event(0, ActionEvaluated.class);
        WebhookReceived received = decided.event(1, WebhookReceived.class);
        assertThat(decided.events()).hasSize(2);
        assertThat(audit.source()).isEqualTo(ActionSource.WEBHOOK);
        assertThat(audit.action()).isEqualTo("pull_request.opened");
        assertThat(audit.riskLevel()).isEqualTo(RiskLevel.LOW);
        assertThat(audit.agentId()).isEqualTo("octocat");
        assertThat(received.processed()).isTrue();
        assertThat(received.auditLogId()).isEqualTo(audit.auditLogId());
        assertThat(received.webhookEventId()).isEqualTo(DerivedIds.webhookEventId(decided.envelope().commandId()));
        assertThat(received.payloadExcerpt()).contains("acme/api");
        assertThat(decided.after()).isSameAs(decided.before());
    }

    @Test
    void a_policy_on_source_webhook_decides_the_event() {
        workspace.admin(new UpsertPolicy(new Policy(UUID.randomUUID().toString(), "no merges from outside", 1, true, Decision.BLOCK,
                new PolicyMatch(Set.of(Tool.CODE_HOST), List.of("pull_request.*"), Set.of(), List.of(), List.of(), List.of(),
                        Set.of(ActionSource.WEBHOOK)), null))).ok();

        Decided decided = workspace.as(VERIFIER, pullRequestOpened("acme/api", null)).ok();

        assertThat(decided.event(1, WebhookReceived.class).decision()).isEqualTo(Decision.BLOCK);
        assertThat(decided.event(0, ActionEvaluated.class).matchedPolicyName()).isEqualTo("no merges from outside");
        assertThat(workspace.evaluate(Tool.CODE_HOST, "pull_request.merge", RiskLevel.LOW).decision().evaluation().decision())
                .as("an agent's own call is no webhook").isNotEqualTo(Decision.BLOCK);
    }

    @Test
    void a_high_risk_event_opens_an_approval_bound_to_the_delivery() {
        ReceiveWebhook deleted = new ReceiveWebhook(Tool.CODE_HOST, "d-3", "repository", "deleted", "octocat", "repository",
                "acme/api", GatewayJson.MAPPER.readTree("{\"action\":\"deleted\"}"));

        Decided decided = workspace.as(VERIFIER, deleted).ok();

        assertThat(decided.decision().evaluation().riskLevel()).isEqualTo(RiskLevel.HIGH);
        assertThat(decided.decision().evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(decided.events()).hasExactlyElementsOfTypes(ActionEvaluated.class, WebhookReceived.class, ApprovalRequested.class);
        ApprovalRequested opened = decided.event(2, ApprovalRequested.class);
        assertThat(opened.approvalId()).isEqualTo(DerivedIds.approvalId(decided.envelope().commandId()));
        assertThat(opened.heldCall()).isNull();
        assertThat(opened.callDigest()).isEqualTo(CallDigest.of(Tool.CODE_HOST, "repository.deleted", deleted.payload()));
        assertThat(workspace.memory.approvals()).containsKey(opened.approvalId());
        assertThat(decided.decision().notifications()).singleElement()
                .satisfies(n -> assertThat(n.kind()).isEqualTo(NotificationRequested.KIND_APPROVAL_REQUESTED));
    }

    @Test
    void a_delivery_nobody_watches_is_recorded_unprocessed() {
        WebhookReceived noConnection = workspace.as(VERIFIER, new ReceiveWebhook(Tool.ISSUE_TRACKER, "d-5", "Issue", "create",
                null, "team", "team-1", GatewayJson.MAPPER.readTree("{\"type\":\"Issue\"}"))).ok().event(0, WebhookReceived.class);
        assertThat(noConnection.processed()).isFalse();
        assertThat(noConnection.decision()).isNull();

        Decided otherRepository = workspace.as(VERIFIER, pullRequestOpened("acme/other", connectionVersion)).ok();
        assertThat(otherRepository.events()).singleElement()
                .isInstanceOfSatisfying(WebhookReceived.class, r -> assertThat(r.processed()).isFalse());
    }

    @Test
    void an_older_connection_version_is_stale_and_only_the_verifier_may_send() {
        workspace.as(VERIFIER, pullRequestOpened("acme/api", connectionVersion - 1)).refused(ReplyStatus.STALE,
                "The code_host connection is at version " + connectionVersion + " (the request named version "
                        + (connectionVersion - 1) + ")");
        assertThat(workspace.as(VERIFIER, pullRequestOpened("acme/api", connectionVersion)).ok()
                .event(1, WebhookReceived.class).processed()).isTrue();

        workspace.admin(pullRequestOpened("acme/api", null)).refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.GATEWAY_REQUIRED);
        workspace.as(VERIFIER, new ReceiveWebhook(Tool.CHAT, "d-9", "message", null, null, null, null, null))
                .refused(ReplyStatus.INVALID, "tool must be code_host or issue_tracker (the tools that send webhooks)");
    }
}
