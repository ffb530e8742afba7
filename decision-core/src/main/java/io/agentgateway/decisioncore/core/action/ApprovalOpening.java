package io.agentgateway.decisioncore.core.action;

import io.agentgateway.classification.ClassifiedRisk;
import io.agentgateway.decisioncore.evaluation.Verdict;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.CallView;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens the approval request a require_approval decision creates (spec section 3: for every kind of
 * evaluation, webhooks included): the pending approval, an entry of its own in the workspace state, bound
 * to the call's digest, its {@link ApprovalRequested} event, and the notification to its reviewers.
 * Approvals whose time is over are ended by the topology's expiry sweep, not here.
 *
 * <p>A workspace that already holds {@code limits.openApprovals} approvals gets none: the decision becomes
 * {@code block} with a reason naming the limit (fail closed: a call that needed a human is not let
 * through because no human can be asked), and nothing is opened or notified.
 */
final class ApprovalOpening {

    /** What was asked, as the reviewers are told it. */
    record Asked(Tool tool, String action, ActionSource source, String agentId, String agentName, String resourceType,
                 String resourceId) {}

    /** The state with the approval, the events to emit after the audit entry, and the reviewers' notification. */
    record Opened(String approvalId, Instant createdAt, Instant expiresAt, WorkspaceState state, List<DomainEvent> events,
                  NotificationRequested reviewersTold) {}

    private final ApprovalRequestedNotification notification = new ApprovalRequestedNotification();
    private final long openApprovalsLimit;

    ApprovalOpening(long openApprovalsLimit) {
        this.openApprovalsLimit = openApprovalsLimit;
    }

    /** Whether the workspace may open one more approval. */
    boolean hasRoom(WorkspaceState state) {
        return state.openApprovalCount() < openApprovalsLimit;
    }

    /** The decision instead of require_approval when the workspace has no room for another approval. */
    Verdict blockedByLimit(Verdict heldForApproval) {
        return new Verdict(Decision.BLOCK, "Workspace holds its limit of " + openApprovalsLimit
                + " open approval requests: blocked instead of held for approval", heldForApproval.matchedPolicy());
    }

    /**
     * @param digest what the approval binds: the held call's digest when there is one to run later, else the
     *               digest of tool, action and payload
     * @param held   the sealed call to run once approved, or null when there is nothing for the gateway to run
     * @param view   what reviewers are shown of the held call (bounded, redacted by the entry point), or null
     */
    Opened open(CommandEnvelope envelope, WorkspaceState state, Asked asked, ClassifiedRisk risk, Verdict verdict,
                String auditLogId, String digest, SealedHeldCall held, CallView view) {
        String approvalId = DerivedIds.approvalId(envelope.commandId());
        Instant expiresAt = envelope.acceptedAt().plus(state.approvalTtl());
        // who the agent says initiated it: under the four-eyes rule that user may not approve it
        String requestedBy = envelope.command() instanceof EvaluateAction evaluation
                ? evaluation.requestedBy() : null;
        // the key that asked is the only one that may withdraw it, and the one its MCP task is bound to
        String requestedByKey = envelope.actor().kind() == ActorKind.API_KEY ? envelope.actor().apiKeyHash() : null;
        WorkspaceState next = state.withApproval(approvalId, PendingApproval.opened(expiresAt, digest, asked.tool(),
                asked.action(), held == null ? null : held.kind(), requestedBy, envelope.acceptedAt(), requestedByKey));
        List<DomainEvent> events = new ArrayList<>();
        events.add(new ApprovalRequested(approvalId, auditLogId, asked.tool(), asked.action(), risk.level(),
                asked.agentId(), digest, expiresAt, held, view));
        NotificationRequested reviewersTold = notification.build(envelope, state, asked,
                new ApprovalRequestedNotification.OpenedApproval(approvalId, auditLogId, asked.agentId(), risk, verdict, expiresAt,
                        digest, view));
        return new Opened(approvalId, envelope.acceptedAt(), expiresAt, next, List.copyOf(events), reviewersTold);
    }
}
