package io.agentgateway.decisioncore.evidence;

import io.agentgateway.evidence.Entry;
import io.agentgateway.evidence.EntryEncoding;
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
import java.util.Arrays;
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

    /** An audit row's entry as the stream encodes it: its kind and its values, in {@link #AUDIT_NAMES}' order. */
    public record AuditRowValues(String kind, String[] values) {
        public byte[] encode() {
            return EntryEncoding.encode(kind, AUDIT_NAMES, values);
        }

        public Entry entry() {
            Map<String, String> fields = new HashMap<>(AUDIT_NAMES.length * 2);
            for (int i = 0; i < AUDIT_NAMES.length; i++) {
                fields.put(AUDIT_NAMES[i], values[i]);
            }
            return Entry.of(kind, fields);
        }
    }

    /** The audit-row fields, in the entry's (byte) order. */
    static final String[] AUDIT_NAMES = EntryFields.AUDIT_ROW.stream().sorted().toArray(String[]::new);

    /**
     * The values of the audit row an event is (an evaluation, a kill-switch call, a refused command), or null for any
     * other event: the fast path of the sealing, which encodes them without building a map.
     */
    public static AuditRowValues auditRow(EventEnvelope envelope, long sequence, PayloadDigests digests) {
        DomainEvent event = envelope.event();
        String[] v;
        String kind;
        if (event instanceof ActionEvaluated evaluated) {
            kind = EntryKinds.ACTION_EVALUATED;
            v = auditRow(envelope, sequence, evaluated.auditLogId());
            v[I_TOOL] = wire(evaluated.tool());
            v[I_ACTION] = evaluated.action();
            v[I_RISK_LEVEL] = wire(evaluated.riskLevel());
            v[I_SUPPLIED_RISK_LEVEL] = wire(evaluated.suppliedRiskLevel());
            v[I_RISK_CLASSIFICATION] = wire(evaluated.riskClassification());
            v[I_RISK_OVERRIDDEN_BY_CALLER] = EntryValues.bool(evaluated.riskOverriddenByCaller());
            v[I_DECISION] = wire(evaluated.decision());
            v[I_REASON] = evaluated.reason();
            v[I_MATCHED_POLICY_ID] = evaluated.matchedPolicyId();
            v[I_MATCHED_POLICY_NAME] = evaluated.matchedPolicyName();
            v[I_APPROVAL_REQUEST_ID] = EntryValues.id(evaluated.approvalRequestId());
            v[I_AGENT_ID] = evaluated.agentId();
            v[I_AGENT_NAME] = evaluated.agentName();
            v[I_AGENT_IDENTITY] = wire(evaluated.agentIdentity());
            v[I_RESOURCE_TYPE] = evaluated.resourceType();
            v[I_RESOURCE_ID] = evaluated.resourceId();
            v[I_REQUESTED_BY] = evaluated.requestedBy();
            v[I_SOURCE] = wire(evaluated.source());
            v[I_PAYLOAD_TRUNCATED] = EntryValues.bool(evaluated.payloadTruncated());
            v[I_PAYLOAD_BYTES] = EntryValues.number(evaluated.payloadBytes());
            v[I_PAYLOAD_SHA256] = digests.payloadSha256();
            v[I_PAYLOAD_EXCERPT_SHA256] = digests.excerptSha256();
            v[I_UNDELIVERED] = EntryValues.bool(evaluated.wasUndelivered());
        } else if (event instanceof KillSwitchChanged changed) {
            kind = EntryKinds.KILL_SWITCH;
            v = undecided(envelope, sequence, changed.auditLogId(), wire(changed.tool()),
                    changed.action() == null ? null : "kill_switch." + changed.action().wire(), RiskLevel.CRITICAL, null);
        } else if (event instanceof LimitReached limit) {
            kind = EntryKinds.LIMIT_REACHED;
            v = undecided(envelope, sequence, limit.auditLogId(), null,
                    limit.command() == null ? "unknown" : limit.command(), RiskLevel.LOW, limit.message());
        } else {
            return null;
        }
        for (int i = 0; i < v.length; i++) {
            v[i] = EntryValues.text(v[i]);
        }
        return new AuditRowValues(kind, v);
    }

    /** The entry of {@code envelope} at {@code sequence}, or empty when the event is not an entry. */
    public static Optional<Entry> of(EventEnvelope envelope, long sequence, PayloadDigests digests) {
        AuditRowValues auditRow = auditRow(envelope, sequence, digests);
        if (auditRow != null) {
            return Optional.of(auditRow.entry());
        }
        DomainEvent event = envelope.event();
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

    /** A kill-switch call or a refused command: an audit row that decides nothing (as the projector writes it). */
    private static String[] undecided(EventEnvelope envelope, long sequence, String auditLogId, String tool, String action,
                                      RiskLevel risk, String reason) {
        String[] v = auditRow(envelope, sequence, auditLogId);
        v[I_TOOL] = tool;
        v[I_ACTION] = action;
        v[I_RISK_LEVEL] = risk.wire();
        v[I_REASON] = reason;
        v[I_RISK_OVERRIDDEN_BY_CALLER] = EntryValues.bool(false);
        v[I_PAYLOAD_TRUNCATED] = EntryValues.bool(false);
        v[I_UNDELIVERED] = EntryValues.bool(false);
        return v;
    }

    /** Every audit-row value null, then those of the envelope. */
    private static String[] auditRow(EventEnvelope envelope, long sequence, String auditLogId) {
        String[] v = new String[AUDIT_NAMES.length];
        v[I_ID] = EntryValues.id(auditLogId);
        v[I_SEQUENCE] = EntryValues.number(sequence);
        v[I_WORKSPACE_ID] = EntryValues.id(envelope.workspaceId());
        v[I_EVENT_ID] = EntryValues.id(envelope.eventId());
        v[I_COMMAND_ID] = envelope.commandId();
        v[I_CORRELATION_ID] = envelope.correlationId();
        v[I_OCCURRED_AT] = EntryValues.instant(envelope.occurredAt());
        v[I_ACTOR_USER_ID] = actorUserId(envelope);
        v[I_POLICY_SET_VERSION] = EntryValues.number(envelope.policySetVersion());
        v[I_WORKSPACE_VERSION] = EntryValues.number(envelope.workspaceVersion());
        return v;
    }

    private static int index(String name) {
        int i = Arrays.asList(AUDIT_NAMES).indexOf(name);
        if (i < 0) {
            throw new IllegalStateException("not an audit-row field: " + name);
        }
        return i;
    }

    private static final int I_ID = index(EntryFields.ID);
    private static final int I_SEQUENCE = index(EntryFields.SEQUENCE);
    private static final int I_WORKSPACE_ID = index(EntryFields.WORKSPACE_ID);
    private static final int I_EVENT_ID = index(EntryFields.EVENT_ID);
    private static final int I_COMMAND_ID = index(EntryFields.COMMAND_ID);
    private static final int I_CORRELATION_ID = index(EntryFields.CORRELATION_ID);
    private static final int I_OCCURRED_AT = index(EntryFields.OCCURRED_AT);
    private static final int I_TOOL = index(EntryFields.TOOL);
    private static final int I_ACTION = index(EntryFields.ACTION);
    private static final int I_RISK_LEVEL = index(EntryFields.RISK_LEVEL);
    private static final int I_SUPPLIED_RISK_LEVEL = index(EntryFields.SUPPLIED_RISK_LEVEL);
    private static final int I_RISK_CLASSIFICATION = index(EntryFields.RISK_CLASSIFICATION);
    private static final int I_RISK_OVERRIDDEN_BY_CALLER = index(EntryFields.RISK_OVERRIDDEN_BY_CALLER);
    private static final int I_DECISION = index(EntryFields.DECISION);
    private static final int I_REASON = index(EntryFields.REASON);
    private static final int I_MATCHED_POLICY_ID = index(EntryFields.MATCHED_POLICY_ID);
    private static final int I_MATCHED_POLICY_NAME = index(EntryFields.MATCHED_POLICY_NAME);
    private static final int I_APPROVAL_REQUEST_ID = index(EntryFields.APPROVAL_REQUEST_ID);
    private static final int I_AGENT_ID = index(EntryFields.AGENT_ID);
    private static final int I_AGENT_NAME = index(EntryFields.AGENT_NAME);
    private static final int I_AGENT_IDENTITY = index(EntryFields.AGENT_IDENTITY);
    private static final int I_RESOURCE_TYPE = index(EntryFields.RESOURCE_TYPE);
    private static final int I_RESOURCE_ID = index(EntryFields.RESOURCE_ID);
    private static final int I_REQUESTED_BY = index(EntryFields.REQUESTED_BY);
    private static final int I_SOURCE = index(EntryFields.SOURCE);
    private static final int I_ACTOR_USER_ID = index(EntryFields.ACTOR_USER_ID);
    private static final int I_PAYLOAD_TRUNCATED = index(EntryFields.PAYLOAD_TRUNCATED);
    private static final int I_PAYLOAD_BYTES = index(EntryFields.PAYLOAD_BYTES);
    private static final int I_PAYLOAD_SHA256 = index(EntryFields.PAYLOAD_SHA256);
    private static final int I_PAYLOAD_EXCERPT_SHA256 = index(EntryFields.PAYLOAD_EXCERPT_SHA256);
    private static final int I_POLICY_SET_VERSION = index(EntryFields.POLICY_SET_VERSION);
    private static final int I_WORKSPACE_VERSION = index(EntryFields.WORKSPACE_VERSION);
    private static final int I_UNDELIVERED = index(EntryFields.UNDELIVERED);

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
