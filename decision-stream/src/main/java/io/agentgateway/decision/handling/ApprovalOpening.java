package io.agentgateway.decision.handling;

import io.agentgateway.decision.evaluation.ClassifiedRisk;
import io.agentgateway.decision.evaluation.Verdict;
import io.agentgateway.decision.state.PendingApproval;
import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.NotificationRequested;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens the approval request a require_approval decision creates (spec section 3: for every kind of
 * evaluation, webhooks included): the pending approval in the workspace state, bound to the call's
 * digest, its {@link ApprovalRequested} event, the approvals whose time is over ended on the way
 * ({@link ApprovalSweep}, which keeps the state bounded), and the notification to its reviewers.
 */
final class ApprovalOpening {

    /** What was asked, as the reviewers are told it. */
    record Asked(Tool tool, String action, ActionSource source, String agentId, String agentName, String resourceType,
                 String resourceId) {}

    /** The state with the approval, the events to emit after the audit entry, and the reviewers' notification. */
    record Opened(String approvalId, WorkspaceState state, List<DomainEvent> events, NotificationRequested reviewersTold) {}

    private final ApprovalRequestedNotification notification = new ApprovalRequestedNotification();

    /**
     * @param digest what the approval binds: the held call's digest when there is one to run later, else the
     *               digest of tool, action and payload
     * @param held   the sealed call to run once approved, or null when there is nothing for the gateway to run
     */
    Opened open(CommandEnvelope envelope, WorkspaceState state, Asked asked, ClassifiedRisk risk, Verdict verdict,
                String auditLogId, String digest, SealedHeldCall held) {
        String approvalId = DerivedIds.approvalId(envelope.commandId());
        ApprovalSweep.Swept swept = ApprovalSweep.at(state, envelope.acceptedAt());
        Instant expiresAt = envelope.acceptedAt().plus(state.approvalTtl());
        WorkspaceState next = swept.state().withApproval(approvalId, PendingApproval.opened(expiresAt, digest, asked.tool(),
                asked.action(), held == null ? null : held.kind()));
        List<DomainEvent> events = new ArrayList<>();
        events.add(new ApprovalRequested(approvalId, auditLogId, asked.tool(), asked.action(), risk.level(),
                asked.agentId(), digest, expiresAt, held));
        events.addAll(swept.events());
        NotificationRequested reviewersTold = notification.build(envelope, state, asked,
                new ApprovalRequestedNotification.OpenedApproval(approvalId, auditLogId, asked.agentId(), risk, verdict, expiresAt));
        return new Opened(approvalId, next, List.copyOf(events), reviewersTold);
    }
}
