package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovalWithdrawn;
import io.agentgateway.schemas.event.ApprovedCallCancelled;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.ApprovedCallFailed;
import io.agentgateway.schemas.event.EventEnvelope;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * approval_requests along the lifecycle: each event moves the row only from the status it leaves, so
 * a whole lifecycle in one batch lands in order, and redelivered or replayed events move nothing back.
 */
class ApprovalLifecycleProjectionTest extends ProjectorTestCase {
    private static final String DIGEST = "ab".repeat(32);
    private static final SealedHeldCall HELD = new SealedHeldCall(HeldCallKind.HTTP_REQUEST, "v1.c2VhbGVkLWNhbGw", DIGEST);
    private static final JsonNode RESULT =
            GatewayJson.MAPPER.readTree("{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"merged\\\":true}\"}],\"httpStatus\":200}");
    private static final Actor EXECUTOR = Actor.system("approval-executor");

    ApprovalLifecycleProjectionTest() {
        super("projector_approvals");
    }

    /** One approval's events, as the decision stream emits them. */
    private static final class Lifecycle {
        final WorkspaceEvents ws = new WorkspaceEvents();
        final EventEnvelope created = ws.created("Approvals");
        final Instant expiresAt = Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MILLIS);
        final EventEnvelope requested;
        final String approvalId;

        Lifecycle(SealedHeldCall held) {
            this(held, null);
        }

        /** @param keyHash the API key that asks (null: the gateway itself, as for a webhook) */
        Lifecycle(SealedHeldCall held, String keyHash) {
            if (keyHash != null) {
                ws.actingAs(Actor.apiKey(keyHash, "agent-1"));
            }
            requested = ws.stateChange(c -> new ApprovalRequested(DerivedIds.approvalId(c), DerivedIds.auditLogId(c),
                    Tool.INTERNAL_API, "deploy.run", RiskLevel.HIGH, "agent-1", DIGEST, expiresAt, held));
            approvalId = DerivedIds.approvalId(requested.commandId());
        }

        EventEnvelope reviewed(ReviewVerdict verdict, String reason) {
            ws.actingAs(Actor.user("reviewer-1", "reviewer@example.com"));
            Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            return ws.stateChange(c -> new ApprovalReviewed(approvalId, verdict, "reviewer-1", reason, at,
                    Tool.INTERNAL_API, "deploy.run", DIGEST, verdict == ReviewVerdict.APPROVE ? HeldCallKind.HTTP_REQUEST : null));
        }

        EventEnvelope claimed() {
            ws.actingAs(EXECUTOR);
            return ws.stateChange(c -> new ApprovedCallClaimed(approvalId, "executor-1", Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        }

        EventEnvelope executed() {
            return ws.stateChange(c -> new ApprovedCallExecuted(approvalId, "executor-1", RESULT,
                    Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        }

        EventEnvelope failed() {
            return ws.stateChange(c -> new ApprovedCallFailed(approvalId, "executor-1",
                    GatewayJson.MAPPER.readTree("{\"content\":[{\"type\":\"text\",\"text\":\"Connection refused\"}],\"isError\":true}"),
                    Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        }

        EventEnvelope cancelled(String reason) {
            ws.actingAs(EXECUTOR);
            return ws.stateChange(c -> new ApprovedCallCancelled(approvalId, reason, Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        }

        EventEnvelope expired() {
            return ws.stateChange(c -> new ApprovalExpired(approvalId, expiresAt));
        }
    }

    private Map<String, Object> row(String approvalId) {
        List<Map<String, Object>> rows = jdbc.queryForList("""
                select status, reviewed_at, reviewed_by, review_reason, execution_result::text as execution_result,
                       executed_at, held_call_kind, sealed_held_call, claimed_by, claimed_at, updated_at
                  from approval_requests where id = ?::uuid""", approvalId);
        return rows.isEmpty() ? null : rows.get(0);
    }

    private Map<String, Object> awaitStatus(String approvalId, String status) {
        return eventually().until(() -> row(approvalId), r -> r != null && status.equals(r.get("status")));
    }

    @Test
    void eachStepOfAnExecutedHeldCallIsProjected() {
        Lifecycle approval = new Lifecycle(HELD);
        publisher.publish(approval.created, approval.requested);
        assertThat(awaitStatus(approval.approvalId, "pending")).contains(
                entry("held_call_kind", "http_request"), entry("sealed_held_call", HELD.sealed()),
                entry("reviewed_at", null), entry("claimed_by", null), entry("executed_at", null));

        EventEnvelope reviewed = approval.reviewed(ReviewVerdict.APPROVE, "go ahead");
        publisher.publish(reviewed);
        ApprovalReviewed review = (ApprovalReviewed) reviewed.event();
        assertThat(awaitStatus(approval.approvalId, "approved")).contains(
                entry("reviewed_at", Timestamp.from(review.reviewedAt())), entry("reviewed_by", "reviewer-1"),
                entry("review_reason", "go ahead"),
                entry("sealed_held_call", HELD.sealed()), entry("updated_at", Timestamp.from(reviewed.occurredAt())));

        EventEnvelope claimed = approval.claimed();
        publisher.publish(claimed);
        assertThat(awaitStatus(approval.approvalId, "executing")).contains(entry("claimed_by", "executor-1"),
                entry("claimed_at", Timestamp.from(((ApprovedCallClaimed) claimed.event()).claimedAt())));

        EventEnvelope executed = approval.executed();
        publisher.publish(executed);
        Map<String, Object> done = awaitStatus(approval.approvalId, "executed");
        assertThat(GatewayJson.MAPPER.readTree((String) done.get("execution_result"))).isEqualTo(RESULT);
        assertThat(done).contains(entry("executed_at", Timestamp.from(((ApprovedCallExecuted) executed.event()).executedAt())),
                entry("sealed_held_call", null), entry("reviewed_by", "reviewer-1"));
    }

    @Test
    void aHeldMcpReadIsProjectedWithItsKind() {
        // issue 15: resources/read and prompts/get are held as kind mcp_request (V12 widens the check)
        SealedHeldCall read = new SealedHeldCall(HeldCallKind.MCP_REQUEST, "v1.c2VhbGVkLXJlYWQ", DIGEST);
        Lifecycle approval = new Lifecycle(read);
        publisher.publish(approval.created, approval.requested);
        assertThat(awaitStatus(approval.approvalId, "pending")).contains(
                entry("held_call_kind", "mcp_request"), entry("sealed_held_call", read.sealed()));
    }

    @Test
    void aWholeLifecycleInOneBatchLandsInOrder() {
        Lifecycle approval = new Lifecycle(HELD);
        publisher.publish(approval.created, approval.requested, approval.reviewed(ReviewVerdict.APPROVE, null),
                approval.claimed(), approval.failed());
        Map<String, Object> done = awaitStatus(approval.approvalId, "failed");
        assertThat((String) done.get("execution_result")).contains("Connection refused");
        assertThat(done).contains(entry("claimed_by", "executor-1"), entry("reviewed_by", "reviewer-1"),
                entry("sealed_held_call", null));
    }

    @Test
    void anApprovedCallCancelledAtItsClaimEndsCancelledWithItsReasonAndNeverMovesAgain() {
        Lifecycle approval = new Lifecycle(HELD);
        EventEnvelope cancelled = approval.cancelled("the workspace kill switch was enabled when the approved call was to run");
        publisher.publish(approval.created, approval.requested, approval.reviewed(ReviewVerdict.APPROVE, "ok"), cancelled);
        eventually().until(() -> jdbc.queryForList("""
                select status, cancel_reason, cancelled_at, sealed_held_call from approval_requests where id = ?::uuid""",
                approval.approvalId), rows -> !rows.isEmpty() && "cancelled".equals(rows.get(0).get("status"))
                && rows.get(0).get("cancel_reason").toString().contains("kill switch")
                && Timestamp.from(((ApprovedCallCancelled) cancelled.event()).cancelledAt()).equals(rows.get(0).get("cancelled_at"))
                && rows.get(0).get("sealed_held_call") == null);

        // a claim or an outcome replayed afterwards moves nothing: cancelled is final
        EventEnvelope marker = approval.ws.stateChange(c -> new ApprovalRequested(DerivedIds.approvalId(c),
                DerivedIds.auditLogId(c), Tool.INTERNAL_API, "deploy.run", RiskLevel.HIGH, "agent-1", DIGEST,
                approval.expiresAt, HELD));
        publisher.publish(approval.claimed(), approval.executed(), marker);
        awaitStatus(DerivedIds.approvalId(marker.commandId()), "pending");
        assertThat(row(approval.approvalId)).contains(entry("status", "cancelled"), entry("claimed_by", null),
                entry("executed_at", null));
    }

    @Test
    void anApprovalKeepsTheKeyThatAskedAndAWithdrawalEndsItWithdrawnOnlyFromPending() {
        String keyHash = "cd".repeat(32);
        Lifecycle withdrawn = new Lifecycle(new SealedHeldCall(HeldCallKind.MCP_TOOL_CALL, "v1.c2VhbGVk", DIGEST), keyHash);
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        EventEnvelope withdrawal = withdrawn.ws.stateChange(c -> new ApprovalWithdrawn(withdrawn.approvalId, "not needed", at));
        publisher.publish(withdrawn.created, withdrawn.requested, withdrawal,
                // a review replayed after it moves nothing: withdrawn is final
                withdrawn.reviewed(ReviewVerdict.APPROVE, "too late"));
        eventually().until(() -> jdbc.queryForList("""
                select status, cancel_reason, cancelled_at, sealed_held_call, requested_by_key_hash, reviewed_by
                  from approval_requests where id = ?::uuid""", withdrawn.approvalId),
                rows -> !rows.isEmpty() && "withdrawn".equals(rows.get(0).get("status"))
                        && "not needed".equals(rows.get(0).get("cancel_reason"))
                        && Timestamp.from(at).equals(rows.get(0).get("cancelled_at"))
                        && rows.get(0).get("sealed_held_call") == null
                        && keyHash.equals(rows.get(0).get("requested_by_key_hash"))
                        && rows.get(0).get("reviewed_by") == null);

        // an approved one is not withdrawn by a withdrawal replayed after its review
        Lifecycle approved = new Lifecycle(HELD, keyHash);
        publisher.publish(approved.created, approved.requested, approved.reviewed(ReviewVerdict.APPROVE, "ok"),
                approved.ws.stateChange(c -> new ApprovalWithdrawn(approved.approvalId, null, at)));
        EventEnvelope marker = approved.ws.stateChange(c -> new ApprovalRequested(DerivedIds.approvalId(c),
                DerivedIds.auditLogId(c), Tool.INTERNAL_API, "deploy.run", RiskLevel.HIGH, "agent-1", DIGEST,
                approved.expiresAt, HELD));
        publisher.publish(marker);
        awaitStatus(DerivedIds.approvalId(marker.commandId()), "pending");
        assertThat(row(approved.approvalId)).contains(entry("status", "approved"));

        // what no key asked for (the gateway's own webhook verifier) has no key
        Lifecycle byTheGateway = new Lifecycle(HELD);
        publisher.publish(byTheGateway.created, byTheGateway.requested);
        awaitStatus(byTheGateway.approvalId, "pending");
        assertThat(jdbc.queryForObject("select requested_by_key_hash from approval_requests where id = ?::uuid", String.class,
                byTheGateway.approvalId)).isNull();
    }

    @Test
    void aRejectionOrAnExpiryEndsItAndForgetsTheHeldCall() {
        Lifecycle rejected = new Lifecycle(HELD);
        publisher.publish(rejected.created, rejected.requested, rejected.reviewed(ReviewVerdict.REJECT, "no"));
        assertThat(awaitStatus(rejected.approvalId, "rejected")).contains(entry("review_reason", "no"),
                entry("sealed_held_call", null), entry("held_call_kind", "http_request"));

        Lifecycle expired = new Lifecycle(HELD);
        publisher.publish(expired.created, expired.requested, expired.expired());
        assertThat(awaitStatus(expired.approvalId, "expired")).contains(entry("reviewed_at", null),
                entry("sealed_held_call", null));
    }

    @Test
    void anApprovalWithoutAHeldCallEndsApproved() {
        Lifecycle approval = new Lifecycle(null);
        publisher.publish(approval.created, approval.requested, approval.reviewed(ReviewVerdict.APPROVE, "fine"));
        assertThat(awaitStatus(approval.approvalId, "approved")).contains(entry("held_call_kind", null),
                entry("sealed_held_call", null), entry("review_reason", "fine"));
    }

    @Test
    void redeliveredAndStaleEventsMoveNothingBack() {
        Lifecycle approval = new Lifecycle(HELD);
        EventEnvelope reviewed = approval.reviewed(ReviewVerdict.APPROVE, "go");
        EventEnvelope claimed = approval.claimed();
        EventEnvelope executed = approval.executed();
        publisher.publish(approval.created, approval.requested, reviewed, claimed, executed);
        Map<String, Object> done = awaitStatus(approval.approvalId, "executed");

        // the whole history again, a late expiry and a contradicting review: none applies any more
        EventEnvelope marker = approval.ws.evaluation("docs.marker");
        publisher.publish(approval.requested, reviewed, claimed, approval.expired(), approval.reviewed(ReviewVerdict.REJECT, "late"),
                executed, marker);
        // same workspace, same partition: once the marker is projected, everything before it is too
        eventually().until(() -> jdbc.queryForObject("select count(*) from audit_log where id = ?::uuid", Long.class,
                DerivedIds.auditLogId(marker.commandId())), count -> count == 1);
        assertThat(row(approval.approvalId)).isEqualTo(done);
    }
}
