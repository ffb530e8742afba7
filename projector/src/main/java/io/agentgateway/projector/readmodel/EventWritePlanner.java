package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.ApiKeyRevoked;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.AuditPayloadErased;
import io.agentgateway.schemas.event.CheckpointIssued;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovalWithdrawn;
import io.agentgateway.schemas.event.ApprovedCallCancelled;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.ApprovedCallFailed;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EvaluationUndelivered;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.LimitReached;
import io.agentgateway.schemas.event.MemberRemoved;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.event.NotificationSettingsSet;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.event.WebhookSecretRotated;
import io.agentgateway.schemas.event.WebhookReceived;
import io.agentgateway.schemas.event.WorkspaceCreated;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Maps one event to the read-model writes it causes: the table of contents of the projection.
 * Pure (no I/O), so a malformed event is refused here, before it can spoil a database batch.
 */
@Component
public class EventWritePlanner {

    /** @throws InvalidEventException if the event lacks what its rows need */
    public List<Write> plan(EventEnvelope envelope) {
        return plan(envelope, null);
    }

    /** @param heldTraceParent for an {@link ApprovalRequested}: the traced request's {@code traceparent}, else null */
    public List<Write> plan(EventEnvelope envelope, String heldTraceParent) {
        requirePresent(envelope.eventId(), "eventId");
        requirePresent(envelope.workspaceId(), "workspaceId");
        requirePresent(envelope.commandId(), "commandId");
        requirePresent(envelope.correlationId(), "correlationId");
        requirePresent(envelope.occurredAt(), "occurredAt");
        requirePresent(envelope.event(), "event");
        try {
            List<Write> writes = AdminChangeWrites.with(envelope, writesOf(envelope, envelope.event(), heldTraceParent));
            if (envelope.seal() == null) {
                return writes;
            }
            // an entry of the workspace's Merkle log: its leaf and the nodes it completed, beside the event's own rows
            List<Write> withSeal = new ArrayList<>(writes);
            withSeal.addAll(EvidenceWrites.sealed(envelope));
            return withSeal;
        } catch (IllegalArgumentException e) {
            // UUID.fromString and friends; the cause's message may quote the value, ours does not
            throw new InvalidEventException("malformed value in " + typeName(envelope.event()), e);
        }
    }

    // Java 17 has no pattern matching for switch; DomainEvent is sealed, so this chain is complete.
    private static List<Write> writesOf(EventEnvelope envelope, DomainEvent event, String heldTraceParent) {
        if (event instanceof ActionEvaluated e) {
            List<Write> used = ApiKeyWrites.used(envelope);
            return used.isEmpty() ? List.of(AuditLogWrites.actionEvaluated(envelope, e))
                    : List.of(AuditLogWrites.actionEvaluated(envelope, e), used.get(0));
        }
        if (event instanceof ApprovalRequested e) {
            return List.of(ApprovalRequestWrites.requested(envelope, e, heldTraceParent));
        }
        if (event instanceof ApprovalReviewed e) {
            return List.of(ApprovalRequestWrites.reviewed(envelope, e));
        }
        if (event instanceof ApprovalExpired e) {
            return List.of(ApprovalRequestWrites.expired(envelope, e));
        }
        if (event instanceof ApprovedCallClaimed e) {
            return List.of(ApprovalRequestWrites.claimed(envelope, e));
        }
        if (event instanceof ApprovedCallExecuted e) {
            return List.of(ApprovalRequestWrites.executed(envelope, e));
        }
        if (event instanceof ApprovedCallFailed e) {
            return List.of(ApprovalRequestWrites.failed(envelope, e));
        }
        if (event instanceof KillSwitchChanged e) {
            return List.of(AuditLogWrites.killSwitch(envelope, e),
                    KillSwitchHistoryWrites.changed(envelope, e),
                    WorkspaceWrites.killSwitch(envelope, e));
        }
        if (event instanceof WorkspaceCreated e) {
            List<Write> writes = new ArrayList<>();
            writes.add(WorkspaceWrites.created(envelope, e));
            writes.addAll(MemberWrites.owner(envelope, e));
            return writes;
        }
        if (event instanceof MemberSet e) {
            return MemberWrites.set(envelope, e);
        }
        if (event instanceof MemberRemoved e) {
            return MemberWrites.removed(envelope, e);
        }
        if (event instanceof PolicyUpserted e) {
            return PolicyWrites.upserted(envelope, e);
        }
        if (event instanceof PolicyDeleted e) {
            return PolicyWrites.deleted(envelope, e);
        }
        if (event instanceof WorkspaceDefaultsSet e) {
            return List.of(WorkspaceWrites.defaults(envelope, e));
        }
        if (event instanceof ApiKeyIssued e) {
            return ApiKeyWrites.issued(envelope, e);
        }
        if (event instanceof ApiKeyRevoked e) {
            return ApiKeyWrites.revoked(envelope, e);
        }
        if (event instanceof NotificationSettingsSet e) {
            return List.of(WorkspaceWrites.notificationSettings(envelope, e));
        }
        if (event instanceof ToolConnectionUpserted e) {
            return ToolConnectionWrites.upserted(envelope, e.connection());
        }
        if (event instanceof WebhookSecretRotated e) {
            return ToolConnectionWrites.upserted(envelope, e.connection());
        }
        if (event instanceof ToolConnectionDeleted e) {
            return ToolConnectionWrites.deleted(envelope, e);
        }
        if (event instanceof ApprovedCallCancelled e) {
            return List.of(ApprovalRequestWrites.cancelled(envelope, e));
        }
        if (event instanceof ApprovalWithdrawn e) {
            return List.of(ApprovalRequestWrites.withdrawn(envelope, e));
        }
        if (event instanceof WebhookReceived e) {
            return List.of(WebhookEventWrites.received(envelope, e));
        }
        if (event instanceof LimitReached e) {
            return List.of(AuditLogWrites.limitReached(envelope, e));
        }
        if (event instanceof EvaluationUndelivered e) {
            // the approval it ended, if any, ends by the ApprovalExpired that follows it
            return List.of(AuditLogWrites.undelivered(envelope, e));
        }
        if (event instanceof CheckpointIssued e) {
            return List.of(EvidenceWrites.checkpoint(envelope, e));
        }
        if (event instanceof AuditPayloadErased e) {
            return EvidenceWrites.payloadErased(envelope, e);
        }
        throw new InvalidEventException("no projection for " + typeName(event));
    }

    private static void requirePresent(Object value, String field) {
        if (value == null) {
            throw new InvalidEventException("event envelope without " + field);
        }
    }

    private static String typeName(DomainEvent event) {
        return event.getClass().getSimpleName();
    }
}
