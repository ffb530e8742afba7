package io.agentgateway.notifier.testing;

import io.agentgateway.schemas.call.CallView;
import io.agentgateway.schemas.notification.ApprovalRequestNotice;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Builders of test notifications and keys. */
public final class Notifications {

    private Notifications() {}

    public static String newSecretKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    /** A kill-switch notification with a fresh id; subject and text name the id so it can be found. */
    public static NotificationRequested killSwitch(String workspaceId, List<String> emailTo, String sealedChatWebhookUrl) {
        return killSwitch(UUID.randomUUID().toString(), workspaceId, emailTo, sealedChatWebhookUrl);
    }

    public static NotificationRequested killSwitch(String notificationId, String workspaceId, List<String> emailTo,
            String sealedChatWebhookUrl) {
        return new NotificationRequested(
                NotificationRequested.CURRENT_VERSION,
                notificationId,
                workspaceId,
                UUID.randomUUID().toString(),
                NotificationRequested.KIND_KILL_SWITCH,
                Instant.parse("2025-01-02T03:04:05Z"),
                "Kill switch enabled [" + notificationId + "]",
                "All agent activity in the workspace has been halted.",
                emailTo,
                sealedChatWebhookUrl,
                Map.of("action", "enable", "actor", "admin@example.test"));
    }

    /**
     * An approval_requested notification for a held issue-tracker {@code IssueDelete} and a workflow write: what the
     * decision stream writes when the entry point sent the call's view (issue 16), with the digest that binds it.
     */
    public static NotificationRequested approvalRequestedWithCall(String workspaceId, List<String> emailTo,
                                                                  String sealedChatWebhookUrl, CallView call, String digest) {
        String approvalId = UUID.randomUUID().toString();
        ApprovalRequestNotice notice = new ApprovalRequestNotice(approvalId, UUID.randomUUID().toString(), "Acme",
                "issue_tracker", "issue.delete", "high", "proxy", "triage-bot", null, null, null,
                "Deletions need a human", null, "2025-01-03T03:04:05Z", digest, call);
        return new NotificationRequested(NotificationRequested.CURRENT_VERSION, UUID.randomUUID().toString(), workspaceId,
                UUID.randomUUID().toString(), NotificationRequested.KIND_APPROVAL_REQUESTED, Instant.parse("2025-01-02T03:04:05Z"),
                "Approval needed: issue.delete on issue_tracker (high risk) [" + approvalId + "]",
                "Agent triage-bot asks to run issue.delete on issue_tracker.", emailTo, sealedChatWebhookUrl, notice.toDetails());
    }

    /** An approval_requested notification as the decision stream writes it, for a fresh approval id. */
    public static NotificationRequested approvalRequested(String workspaceId, List<String> emailTo, String sealedChatWebhookUrl) {
        String approvalId = UUID.randomUUID().toString();
        ApprovalRequestNotice notice = new ApprovalRequestNotice(approvalId, UUID.randomUUID().toString(), "Acme",
                "code_host", "pull_request.merge", "high", "mcp", "deploy-bot", null, "repository", "acme/api",
                "Merges need a human", null, "2025-01-03T03:04:05Z");
        return new NotificationRequested(
                NotificationRequested.CURRENT_VERSION,
                UUID.randomUUID().toString(),
                workspaceId,
                UUID.randomUUID().toString(),
                NotificationRequested.KIND_APPROVAL_REQUESTED,
                Instant.parse("2025-01-02T03:04:05Z"),
                "Approval needed: pull_request.merge on code_host (high risk) [" + approvalId + "]",
                "Agent deploy-bot asks to run pull_request.merge on code_host.",
                emailTo,
                sealedChatWebhookUrl,
                notice.toDetails());
    }
}
