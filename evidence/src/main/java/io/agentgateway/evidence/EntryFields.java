package io.agentgateway.evidence;

import java.util.List;

/**
 * Field names of entries (format v1). An audit row's entry has exactly {@link #AUDIT_ROW}, named after the
 * {@code audit_log} columns they are read from; the other kinds have {@link #COMMON} plus their own.
 */
public final class EntryFields {
    private EntryFields() {}

    public static final String SEQUENCE = "sequence";
    public static final String WORKSPACE_ID = "workspace_id";
    public static final String EVENT_ID = "event_id";
    public static final String COMMAND_ID = "command_id";
    public static final String CORRELATION_ID = "correlation_id";
    public static final String OCCURRED_AT = "occurred_at";
    public static final String ACTOR_KIND = "actor_kind";
    public static final String ACTOR_USER_ID = "actor_user_id";
    public static final String WORKSPACE_VERSION = "workspace_version";
    public static final String POLICY_SET_VERSION = "policy_set_version";

    // an audit row's own
    public static final String ID = "id";
    public static final String TOOL = "tool";
    public static final String ACTION = "action";
    public static final String RISK_LEVEL = "risk_level";
    public static final String SUPPLIED_RISK_LEVEL = "supplied_risk_level";
    public static final String RISK_CLASSIFICATION = "risk_classification";
    public static final String RISK_OVERRIDDEN_BY_CALLER = "risk_overridden_by_caller";
    public static final String DECISION = "decision";
    public static final String REASON = "reason";
    public static final String MATCHED_POLICY_ID = "matched_policy_id";
    public static final String MATCHED_POLICY_NAME = "matched_policy_name";
    public static final String APPROVAL_REQUEST_ID = "approval_request_id";
    public static final String AGENT_ID = "agent_id";
    public static final String AGENT_NAME = "agent_name";
    public static final String AGENT_IDENTITY = "agent_identity";
    public static final String RESOURCE_TYPE = "resource_type";
    public static final String RESOURCE_ID = "resource_id";
    public static final String REQUESTED_BY = "requested_by";
    public static final String SOURCE = "source";
    public static final String PAYLOAD_TRUNCATED = "payload_truncated";
    public static final String PAYLOAD_BYTES = "payload_bytes";
    /** Lower-case hex SHA-256 of the whole payload as compact JSON (before the excerpt was cut from it). */
    public static final String PAYLOAD_SHA256 = "payload_sha256";
    /** Lower-case hex SHA-256 of the stored excerpt's UTF-8 bytes; null when there is none. */
    public static final String PAYLOAD_EXCERPT_SHA256 = "payload_excerpt_sha256";
    /** As sealed: an evaluation decided after its caller's deadline; a later {@code evaluation_undelivered} entry sets the row's. */
    public static final String UNDELIVERED = "undelivered";

    // other kinds'
    public static final String AUDIT_LOG_ID = "audit_log_id";
    public static final String VERDICT = "verdict";
    public static final String REVIEWED_BY = "reviewed_by";
    public static final String CALL_DIGEST = "call_digest";
    public static final String HELD_CALL_KIND = "held_call_kind";
    public static final String EXPIRES_AT = "expires_at";
    public static final String EXECUTOR_ID = "executor_id";
    public static final String RESULT_SHA256 = "result_sha256";
    public static final String EVALUATION_COMMAND_ID = "evaluation_command_id";
    public static final String ANSWERED_STATUS = "answered_status";
    public static final String POLICY_ID = "policy_id";
    /** The whole policy (or the defaults) as canonical JSON: sorted keys, nulls kept, no whitespace. */
    public static final String POLICY = "policy";
    public static final String DEFAULTS = "defaults";

    /** Every field of an audit row's entry: the {@code audit_log} columns of the same names. */
    public static final List<String> AUDIT_ROW = List.of(ID, SEQUENCE, WORKSPACE_ID, EVENT_ID, COMMAND_ID, CORRELATION_ID,
            OCCURRED_AT, TOOL, ACTION, RISK_LEVEL, SUPPLIED_RISK_LEVEL, RISK_CLASSIFICATION, RISK_OVERRIDDEN_BY_CALLER,
            DECISION, REASON, MATCHED_POLICY_ID, MATCHED_POLICY_NAME, APPROVAL_REQUEST_ID, AGENT_ID, AGENT_NAME,
            AGENT_IDENTITY, RESOURCE_TYPE, RESOURCE_ID, REQUESTED_BY, SOURCE, ACTOR_USER_ID, PAYLOAD_TRUNCATED,
            PAYLOAD_BYTES, PAYLOAD_SHA256, PAYLOAD_EXCERPT_SHA256, POLICY_SET_VERSION, WORKSPACE_VERSION, UNDELIVERED);

    /** What every entry of another kind has. */
    public static final List<String> COMMON = List.of(SEQUENCE, WORKSPACE_ID, EVENT_ID, COMMAND_ID, CORRELATION_ID,
            OCCURRED_AT, ACTOR_KIND, ACTOR_USER_ID, WORKSPACE_VERSION, POLICY_SET_VERSION);
}
