package io.agentgateway.schemas.event;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * What the decision stream decided or changed, inside an {@link EventEnvelope} on the events topic.
 * The projector builds every read model from these; a replay of the topic rebuilds them.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ActionEvaluated.class, name = "action_evaluated"),
    @JsonSubTypes.Type(value = ApprovalRequested.class, name = "approval_requested"),
    @JsonSubTypes.Type(value = KillSwitchChanged.class, name = "kill_switch_changed"),
    @JsonSubTypes.Type(value = WorkspaceCreated.class, name = "workspace_created"),
    @JsonSubTypes.Type(value = MemberSet.class, name = "member_set"),
    @JsonSubTypes.Type(value = MemberRemoved.class, name = "member_removed"),
    @JsonSubTypes.Type(value = PolicyUpserted.class, name = "policy_upserted"),
    @JsonSubTypes.Type(value = PolicyDeleted.class, name = "policy_deleted"),
    @JsonSubTypes.Type(value = WorkspaceDefaultsSet.class, name = "workspace_defaults_set"),
    @JsonSubTypes.Type(value = ApiKeyIssued.class, name = "api_key_issued"),
    @JsonSubTypes.Type(value = ApiKeyRevoked.class, name = "api_key_revoked"),
    @JsonSubTypes.Type(value = NotificationSettingsSet.class, name = "notification_settings_set"),
    @JsonSubTypes.Type(value = ToolConnectionUpserted.class, name = "tool_connection_upserted"),
    @JsonSubTypes.Type(value = ToolConnectionDeleted.class, name = "tool_connection_deleted"),
    @JsonSubTypes.Type(value = WebhookSecretRotated.class, name = "webhook_secret_rotated"),
    @JsonSubTypes.Type(value = ApprovalReviewed.class, name = "approval_reviewed"),
    @JsonSubTypes.Type(value = ApprovalExpired.class, name = "approval_expired"),
    @JsonSubTypes.Type(value = ApprovedCallClaimed.class, name = "approved_call_claimed"),
    @JsonSubTypes.Type(value = ApprovedCallExecuted.class, name = "approved_call_executed"),
    @JsonSubTypes.Type(value = ApprovedCallFailed.class, name = "approved_call_failed"),
    @JsonSubTypes.Type(value = WebhookReceived.class, name = "webhook_received"),
    @JsonSubTypes.Type(value = ApprovedCallCancelled.class, name = "approved_call_cancelled"),
    @JsonSubTypes.Type(value = LimitReached.class, name = "limit_reached"),
    @JsonSubTypes.Type(value = EvaluationUndelivered.class, name = "evaluation_undelivered"),
    @JsonSubTypes.Type(value = ApprovalWithdrawn.class, name = "approval_withdrawn"),
    @JsonSubTypes.Type(value = CheckpointIssued.class, name = "checkpoint_issued"),
    @JsonSubTypes.Type(value = AuditPayloadErased.class, name = "audit_payload_erased"),
})
public sealed interface DomainEvent
        permits ActionEvaluated, ApprovalRequested, KillSwitchChanged, WorkspaceCreated, MemberSet,
                MemberRemoved, PolicyUpserted, PolicyDeleted, WorkspaceDefaultsSet, ApiKeyIssued,
                ApiKeyRevoked, NotificationSettingsSet, ToolConnectionUpserted, ToolConnectionDeleted,
                WebhookSecretRotated, ApprovalReviewed, ApprovalExpired, ApprovedCallClaimed,
                ApprovedCallExecuted, ApprovedCallFailed,
                WebhookReceived, ApprovedCallCancelled, LimitReached, EvaluationUndelivered, ApprovalWithdrawn,
                CheckpointIssued, AuditPayloadErased {}
