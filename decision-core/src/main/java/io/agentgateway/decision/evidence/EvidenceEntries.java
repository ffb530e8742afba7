package io.agentgateway.decision.evidence;

import io.agentgateway.evidence.Entry;
import io.agentgateway.evidence.EntryFields;
import io.agentgateway.evidence.EntryKinds;
import io.agentgateway.evidence.EntryValues;
import io.agentgateway.evidence.Hashes;
import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.call.CanonicalJson;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovedCallCancelled;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.ApprovedCallFailed;
import io.agentgateway.schemas.event.AuditPayloadErased;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EvaluationUndelivered;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.LimitReached;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Which events are entries of a workspace's log, and their fields (module {@code evidence}: {@link EntryKinds},
 * {@link EntryFields}). An audit row's entry has exactly the values the projector writes into its {@code audit_log}
 * columns, written as {@link EntryValues} says, so that the live check recomputes the same entry from the row; the
 * payload is represented by its digests only, so that it can be erased without breaking the log.
 */
public final class EvidenceEntries {
    private EvidenceEntries() {}

    /** The digests of an evaluation's payload, computed where the whole payload still is (the command). */
    public record PayloadDigests(String payloadSha256, String excerptSha256) {
        static final PayloadDigests NONE = new PayloadDigests(null, null);
    }

    /** The entry of {@code envelope} at {@code sequence}, or empty when the event is not an entry. */
    public static Optional<Entry> of(EventEnvelope envelope, long sequence, PayloadDigests digests) {
        DomainEvent event = envelope.event();
        if (event instanceof ActionEvaluated evaluated) {
            return Optional.of(actionEvaluated(envelope, sequence, evaluated, digests));
        }
        if (event instanceof KillSwitchChanged changed) {
            return Optional.of(undecided(envelope, sequence, EntryKinds.KILL_SWITCH, changed.auditLogId(),
                    wire(changed.tool()), changed.action() == null ? null : "kill_switch." + changed.action().wire(),
                    RiskLevel.CRITICAL, null));
        }
        if (event instanceof LimitReached limit) {
            return Optional.of(undecided(envelope, sequence, EntryKinds.LIMIT_REACHED, limit.auditLogId(), null,
                    limit.command() == null ? "unknown" : limit.command(), RiskLevel.LOW, limit.message()));
        }
        Map<String, String> fields = new HashMap<>();
        String kind;
        if (event instanceof ApprovalRequested requested) {
            kind = EntryKinds.APPROVAL_REQUESTED;
            fields.put(EntryFields.APPROVAL_REQUEST_ID, EntryValues.id(requested.approvalId()));
            fields.put(EntryFields.AUDIT_LOG_ID, EntryValues.id(requested.auditLogId()));
            fields.put(EntryFields.TOOL, wire(requested.tool()));
            fields.put(EntryFields.ACTION, requested.action());
            fields.put(EntryFields.RISK_LEVEL, wire(requested.riskLevel()));
            fields.put(EntryFields.AGENT_ID, requested.agentId());
            fields.put(EntryFields.CALL_DIGEST, requested.callDigest());
            fields.put(EntryFields.EXPIRES_AT, EntryValues.instant(requested.expiresAt()));
            fields.put(EntryFields.HELD_CALL_KIND, requested.heldCall() == null ? null : wire(requested.heldCall().kind()));
        } else if (event instanceof ApprovalReviewed reviewed) {
            kind = EntryKinds.APPROVAL_REVIEWED;
            fields.put(EntryFields.APPROVAL_REQUEST_ID, EntryValues.id(reviewed.approvalId()));
            fields.put(EntryFields.VERDICT, wire(reviewed.verdict()));
            fields.put(EntryFields.REVIEWED_BY, reviewed.reviewedBy());
            fields.put(EntryFields.REASON, reviewed.reason());
            fields.put(EntryFields.TOOL, wire(reviewed.tool()));
            fields.put(EntryFields.ACTION, reviewed.action());
            fields.put(EntryFields.CALL_DIGEST, reviewed.callDigest());
            fields.put(EntryFields.HELD_CALL_KIND, wire(reviewed.heldCallKind()));
        } else if (event instanceof ApprovedCallClaimed claimed) {
            kind = EntryKinds.APPROVED_CALL_CLAIMED;
            fields.put(EntryFields.APPROVAL_REQUEST_ID, EntryValues.id(claimed.approvalId()));
            fields.put(EntryFields.EXECUTOR_ID, claimed.executorId());
        } else if (event instanceof ApprovedCallExecuted executed) {
            kind = EntryKinds.APPROVED_CALL_EXECUTED;
            fields.put(EntryFields.APPROVAL_REQUEST_ID, EntryValues.id(executed.approvalId()));
            fields.put(EntryFields.EXECUTOR_ID, executed.executorId());
            fields.put(EntryFields.RESULT_SHA256, digest(executed.result()));
        } else if (event instanceof ApprovedCallFailed failed) {
            kind = EntryKinds.APPROVED_CALL_FAILED;
            fields.put(EntryFields.APPROVAL_REQUEST_ID, EntryValues.id(failed.approvalId()));
            fields.put(EntryFields.EXECUTOR_ID, failed.executorId());
            fields.put(EntryFields.RESULT_SHA256, digest(failed.result()));
        } else if (event instanceof ApprovedCallCancelled cancelled) {
            kind = EntryKinds.APPROVED_CALL_CANCELLED;
            fields.put(EntryFields.APPROVAL_REQUEST_ID, EntryValues.id(cancelled.approvalId()));
            fields.put(EntryFields.REASON, cancelled.reason());
        } else if (event instanceof EvaluationUndelivered undelivered) {
            kind = EntryKinds.EVALUATION_UNDELIVERED;
            fields.put(EntryFields.AUDIT_LOG_ID, EntryValues.id(undelivered.auditLogId()));
            fields.put(EntryFields.EVALUATION_COMMAND_ID, undelivered.evaluationCommandId());
            fields.put(EntryFields.APPROVAL_REQUEST_ID, EntryValues.id(undelivered.approvalId()));
            fields.put(EntryFields.ANSWERED_STATUS, EntryValues.number(undelivered.answeredStatus()));
        } else if (event instanceof PolicyUpserted upserted) {
            kind = EntryKinds.POLICY_UPSERTED;
            fields.put(EntryFields.POLICY_ID, upserted.policy() == null ? null : EntryValues.id(upserted.policy().id()));
            fields.put(EntryFields.POLICY, canonical(upserted.policy()));
        } else if (event instanceof PolicyDeleted deleted) {
            kind = EntryKinds.POLICY_DELETED;
            fields.put(EntryFields.POLICY_ID, EntryValues.id(deleted.policyId()));
        } else if (event instanceof WorkspaceDefaultsSet defaults) {
            kind = EntryKinds.WORKSPACE_DEFAULTS_SET;
            fields.put(EntryFields.DEFAULTS, canonical(defaults));
        } else if (event instanceof AuditPayloadErased erased) {
            kind = EntryKinds.AUDIT_PAYLOAD_ERASED;
            fields.put(EntryFields.AUDIT_LOG_ID, EntryValues.id(erased.auditLogId()));
            fields.put(EntryFields.REASON, erased.reason());
        } else {
            return Optional.empty();
        }
        fields.put(EntryFields.SEQUENCE, EntryValues.number(sequence));
        fields.put(EntryFields.WORKSPACE_ID, EntryValues.id(envelope.workspaceId()));
        fields.put(EntryFields.EVENT_ID, EntryValues.id(envelope.eventId()));
        fields.put(EntryFields.COMMAND_ID, envelope.commandId());
        fields.put(EntryFields.CORRELATION_ID, envelope.correlationId());
        fields.put(EntryFields.OCCURRED_AT, EntryValues.instant(envelope.occurredAt()));
        fields.put(EntryFields.ACTOR_KIND, envelope.actor() == null ? null : wire(envelope.actor().kind()));
        fields.put(EntryFields.ACTOR_USER_ID, actorUserId(envelope));
        fields.put(EntryFields.WORKSPACE_VERSION, EntryValues.number(envelope.workspaceVersion()));
        fields.put(EntryFields.POLICY_SET_VERSION, EntryValues.number(envelope.policySetVersion()));
        return Optional.of(entry(kind, fields));
    }

    /** The entry, every text as PostgreSQL stores it ({@link EntryValues#text}). */
    private static Entry entry(String kind, Map<String, String> fields) {
        fields.replaceAll((name, value) -> EntryValues.text(value));
        return Entry.of(kind, fields);
    }

    private static Entry actionEvaluated(EventEnvelope envelope, long sequence, ActionEvaluated event, PayloadDigests digests) {
        Map<String, String> fields = auditRow(envelope, sequence, event.auditLogId());
        fields.put(EntryFields.TOOL, wire(event.tool()));
        fields.put(EntryFields.ACTION, event.action());
        fields.put(EntryFields.RISK_LEVEL, wire(event.riskLevel()));
        fields.put(EntryFields.SUPPLIED_RISK_LEVEL, wire(event.suppliedRiskLevel()));
        fields.put(EntryFields.RISK_CLASSIFICATION, wire(event.riskClassification()));
        fields.put(EntryFields.RISK_OVERRIDDEN_BY_CALLER, EntryValues.bool(event.riskOverriddenByCaller()));
        fields.put(EntryFields.DECISION, wire(event.decision()));
        fields.put(EntryFields.REASON, event.reason());
        fields.put(EntryFields.MATCHED_POLICY_ID, event.matchedPolicyId());
        fields.put(EntryFields.MATCHED_POLICY_NAME, event.matchedPolicyName());
        fields.put(EntryFields.APPROVAL_REQUEST_ID, EntryValues.id(event.approvalRequestId()));
        fields.put(EntryFields.AGENT_ID, event.agentId());
        fields.put(EntryFields.AGENT_NAME, event.agentName());
        fields.put(EntryFields.AGENT_IDENTITY, wire(event.agentIdentity()));
        fields.put(EntryFields.RESOURCE_TYPE, event.resourceType());
        fields.put(EntryFields.RESOURCE_ID, event.resourceId());
        fields.put(EntryFields.REQUESTED_BY, event.requestedBy());
        fields.put(EntryFields.SOURCE, wire(event.source()));
        fields.put(EntryFields.PAYLOAD_TRUNCATED, EntryValues.bool(event.payloadTruncated()));
        fields.put(EntryFields.PAYLOAD_BYTES, EntryValues.number(event.payloadBytes()));
        fields.put(EntryFields.PAYLOAD_SHA256, digests.payloadSha256());
        fields.put(EntryFields.PAYLOAD_EXCERPT_SHA256, digests.excerptSha256());
        fields.put(EntryFields.UNDELIVERED, EntryValues.bool(event.wasUndelivered()));
        return entry(EntryKinds.ACTION_EVALUATED, fields);
    }

    /** A kill-switch call or a refused command: an audit row that decides nothing (as the projector writes it). */
    private static Entry undecided(EventEnvelope envelope, long sequence, String kind, String auditLogId, String tool,
                                   String action, RiskLevel risk, String reason) {
        Map<String, String> fields = auditRow(envelope, sequence, auditLogId);
        fields.put(EntryFields.TOOL, tool);
        fields.put(EntryFields.ACTION, action);
        fields.put(EntryFields.RISK_LEVEL, risk.wire());
        fields.put(EntryFields.REASON, reason);
        fields.put(EntryFields.RISK_OVERRIDDEN_BY_CALLER, EntryValues.bool(false));
        fields.put(EntryFields.PAYLOAD_TRUNCATED, EntryValues.bool(false));
        fields.put(EntryFields.UNDELIVERED, EntryValues.bool(false));
        return entry(kind, fields);
    }

    /** Every audit-row field, null, then those of the envelope. */
    private static Map<String, String> auditRow(EventEnvelope envelope, long sequence, String auditLogId) {
        Map<String, String> fields = new HashMap<>(64);
        for (String name : EntryFields.AUDIT_ROW) {
            fields.put(name, null);
        }
        fields.put(EntryFields.ID, EntryValues.id(auditLogId));
        fields.put(EntryFields.SEQUENCE, EntryValues.number(sequence));
        fields.put(EntryFields.WORKSPACE_ID, EntryValues.id(envelope.workspaceId()));
        fields.put(EntryFields.EVENT_ID, EntryValues.id(envelope.eventId()));
        fields.put(EntryFields.COMMAND_ID, envelope.commandId());
        fields.put(EntryFields.CORRELATION_ID, envelope.correlationId());
        fields.put(EntryFields.OCCURRED_AT, EntryValues.instant(envelope.occurredAt()));
        fields.put(EntryFields.ACTOR_USER_ID, actorUserId(envelope));
        fields.put(EntryFields.POLICY_SET_VERSION, EntryValues.number(envelope.policySetVersion()));
        fields.put(EntryFields.WORKSPACE_VERSION, EntryValues.number(envelope.workspaceVersion()));
        return fields;
    }

    /** Only a person has a user id (as the projector's {@code actor_user_id}). */
    private static String actorUserId(EventEnvelope envelope) {
        return envelope.actor() != null && envelope.actor().kind() == ActorKind.USER ? envelope.actor().userId() : null;
    }

    /** An enum's wire name: its lower-case name (schemas' rule for every enum of the contract). */
    private static String wire(Enum<?> value) {
        return value == null ? null : value.name().toLowerCase(Locale.ROOT);
    }

    /** Lower-case hex SHA-256 of a JSON value's canonical text (sorted keys): an execution's result. */
    static String digest(JsonNode value) {
        return value == null || value.isNull() ? null : Hashes.sha256Hex(CanonicalJson.of(value));
    }

    private static String canonical(Object value) {
        return value == null ? null : CanonicalJson.of(GatewayJson.MAPPER.valueToTree(value));
    }
}
