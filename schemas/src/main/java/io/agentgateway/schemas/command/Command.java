package io.agentgateway.schemas.command;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * Everything that can change or query a workspace enters the log as one of these, inside a
 * {@link CommandEnvelope}. The {@code type} property names the variant on the wire; names are part of
 * the v1 contract and never change meaning.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = EvaluateAction.class, name = "evaluate_action"),
    @JsonSubTypes.Type(value = CreateWorkspace.class, name = "create_workspace"),
    @JsonSubTypes.Type(value = SetKillSwitch.class, name = "set_kill_switch"),
    @JsonSubTypes.Type(value = UpsertPolicy.class, name = "upsert_policy"),
    @JsonSubTypes.Type(value = DeletePolicy.class, name = "delete_policy"),
    @JsonSubTypes.Type(value = SetWorkspaceDefaults.class, name = "set_workspace_defaults"),
    @JsonSubTypes.Type(value = IssueApiKey.class, name = "issue_api_key"),
    @JsonSubTypes.Type(value = RevokeApiKey.class, name = "revoke_api_key"),
    @JsonSubTypes.Type(value = SetMember.class, name = "set_member"),
    @JsonSubTypes.Type(value = RemoveMember.class, name = "remove_member"),
    @JsonSubTypes.Type(value = SetNotificationSettings.class, name = "set_notification_settings"),
    @JsonSubTypes.Type(value = UpsertToolConnection.class, name = "upsert_tool_connection"),
    @JsonSubTypes.Type(value = DeleteToolConnection.class, name = "delete_tool_connection"),
    @JsonSubTypes.Type(value = RotateWebhookSecret.class, name = "rotate_webhook_secret"),
    @JsonSubTypes.Type(value = ReviewApproval.class, name = "review_approval"),
    @JsonSubTypes.Type(value = ClaimApprovedCall.class, name = "claim_approved_call"),
    @JsonSubTypes.Type(value = RecordCallExecution.class, name = "record_call_execution"),
    @JsonSubTypes.Type(value = ReceiveWebhook.class, name = "receive_webhook"),
    @JsonSubTypes.Type(value = CheckAccess.class, name = "check_access"),
    @JsonSubTypes.Type(value = SetToolAccessToken.class, name = "set_tool_access_token"),
    @JsonSubTypes.Type(value = RecordCallerGaveUp.class, name = "record_caller_gave_up"),
    @JsonSubTypes.Type(value = WithdrawApproval.class, name = "withdraw_approval"),
    @JsonSubTypes.Type(value = EraseAuditPayload.class, name = "erase_audit_payload"),
    @JsonSubTypes.Type(value = SendTestNotification.class, name = "send_test_notification"),
})
public sealed interface Command
        permits EvaluateAction, CreateWorkspace, SetKillSwitch, UpsertPolicy, DeletePolicy,
                SetWorkspaceDefaults, IssueApiKey, RevokeApiKey, SetMember, RemoveMember,
                SetNotificationSettings, UpsertToolConnection, DeleteToolConnection, RotateWebhookSecret,
                ReviewApproval, ClaimApprovedCall, RecordCallExecution,
                ReceiveWebhook, CheckAccess, SetToolAccessToken, RecordCallerGaveUp, WithdrawApproval,
                EraseAuditPayload, SendTestNotification {}
