package io.agentgateway.decisioncore.core.action;

import io.agentgateway.classification.ClassifiedRisk;
import io.agentgateway.decisioncore.evaluation.Verdict;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.notification.ApprovalRequestNotice;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.call.CallView;
import java.time.Instant;
import java.util.List;

/**
 * The {@code approval_requested} notification: a require_approval decision opened an approval, and the
 * workspace's reviewers (its admins and owners, and the chat channel when configured) are told what is
 * asked. Resolved completely here, as the kill-switch notification is, so the notifier needs no
 * workspace state; the notifier adds how to review (links under its own public base URL).
 *
 * <p>Only the facts of the request travel: never the payload nor the held call, which may carry data
 * or credentials that have no business in a mailbox; what will run only as the held call's view,
 * which the entry point bounded and redacted, and the digest that binds the approval to it. Caller-supplied strings are cut to a bounded
 * length: a notification is a pointer to the approval, not a copy of the request.
 */
final class ApprovalRequestedNotification {
    static final int MAX_FACT_LENGTH = 256;

    /** @param view what the held call will do, bounded and redacted by the entry point that sealed it, or null */
    record OpenedApproval(String approvalId, String auditLogId, String agentId, ClassifiedRisk risk, Verdict verdict,
                          Instant expiresAt, String callDigest, CallView view) {}

    NotificationRequested build(CommandEnvelope envelope, WorkspaceState state, ApprovalOpening.Asked command,
                                OpenedApproval opened) {
        String workspace = state.name() == null ? envelope.workspaceId() : state.name();
        String tool = command.tool().wire();
        String action = bounded(command.action());
        String risk = opened.risk().level().wire();
        String agentId = bounded(opened.agentId());
        ApprovalRequestNotice notice = new ApprovalRequestNotice(opened.approvalId(), opened.auditLogId(), workspace, tool,
                action, risk, command.source() == null ? null : command.source().wire(), agentId,
                bounded(command.agentName()), bounded(command.resourceType()), bounded(command.resourceId()),
                opened.verdict().reason(), opened.verdict().matchedPolicyId(), opened.expiresAt().toString(),
                opened.callDigest(), opened.view());

        String subject = "Approval needed: " + action + " on " + tool + " (" + risk + " risk) in workspace " + workspace;
        String who = command.source() == ActionSource.WEBHOOK
                ? "A " + tool + " webhook" + (agentId == null ? "" : " sent by " + agentId) + " reports, and"
                : agentId == null ? "An agent" : "Agent " + agentId;
        StringBuilder text = new StringBuilder()
                .append(who).append(" asks to run ").append(action).append(" on ").append(tool);
        if (notice.resourceId() != null) {
            text.append(" (").append(notice.resourceType() == null ? "resource" : notice.resourceType())
                    .append(' ').append(notice.resourceId()).append(')');
        }
        text.append(" in workspace \"").append(workspace).append("\" (").append(envelope.workspaceId()).append("). ")
                .append("Risk: ").append(risk).append(". Held because: ").append(opened.verdict().reason()).append(". ")
                .append("It waits for an admin or owner to approve or reject approval request ")
                .append(opened.approvalId()).append(" and expires at ").append(opened.expiresAt()).append('.');

        List<String> emailTo = state.notifications().emailEnabled() ? state.administratorEmails() : List.of();
        return new NotificationRequested(NotificationRequested.CURRENT_VERSION,
                DerivedIds.notificationId(envelope.commandId()), envelope.workspaceId(), envelope.correlationId(),
                NotificationRequested.KIND_APPROVAL_REQUESTED, envelope.acceptedAt(), subject, text.toString(), emailTo,
                state.notifications().sealedChatWebhookUrl(), notice.toDetails());
    }

    static String bounded(String value) {
        if (value == null || value.length() <= MAX_FACT_LENGTH) {
            return value;
        }
        return value.substring(0, MAX_FACT_LENGTH - 1) + "…";
    }
}
