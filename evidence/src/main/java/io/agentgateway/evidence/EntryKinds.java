package io.agentgateway.evidence;

import java.util.Set;

/**
 * The kinds of entries a workspace's log holds (format v1). Three are audit-log rows, recomputed from the row's
 * columns ({@link EntryFields#AUDIT_ROW}); the others are kept as their encoded bytes beside the log
 * ({@code evidence_entries.entry}).
 */
public final class EntryKinds {
    private EntryKinds() {}

    /** An evaluation: agent action, proxied call, MCP call or webhook, with its decision. */
    public static final String ACTION_EVALUATED = "action_evaluated";
    /** A kill-switch call (enable, disable, pause or resume a tool). */
    public static final String KILL_SWITCH = "kill_switch";
    /** A command refused at a workspace limit. */
    public static final String LIMIT_REACHED = "limit_reached";

    /** An approval opened by an evaluation: its call digest and expiry. */
    public static final String APPROVAL_REQUESTED = "approval_requested";
    /** An approval approved or rejected. */
    public static final String APPROVAL_REVIEWED = "approval_reviewed";
    /** An approved call claimed for its one run. */
    public static final String APPROVED_CALL_CLAIMED = "approved_call_claimed";
    /** An approved call run, with the SHA-256 of its result. */
    public static final String APPROVED_CALL_EXECUTED = "approved_call_executed";
    /** An approved call that failed, with the SHA-256 of its result. */
    public static final String APPROVED_CALL_FAILED = "approved_call_failed";
    /** An approved call cancelled by the kill switch or a pause. */
    public static final String APPROVED_CALL_CANCELLED = "approved_call_cancelled";
    /** An evaluation's answer reached nobody: its audit row's {@code undelivered} turns true. */
    public static final String EVALUATION_UNDELIVERED = "evaluation_undelivered";
    /** A policy created or replaced (the whole policy). */
    public static final String POLICY_UPSERTED = "policy_upserted";
    /** A policy deleted. */
    public static final String POLICY_DELETED = "policy_deleted";
    /** The workspace's default decisions and approval expiry set. */
    public static final String WORKSPACE_DEFAULTS_SET = "workspace_defaults_set";
    /** An audit row's stored payload erased (its digest stays in the log). */
    public static final String AUDIT_PAYLOAD_ERASED = "audit_payload_erased";

    /** The kinds whose entry is an audit-log row. */
    public static final Set<String> AUDIT_ROWS = Set.of(ACTION_EVALUATED, KILL_SWITCH, LIMIT_REACHED);

    public static boolean isAuditRow(String kind) {
        return AUDIT_ROWS.contains(kind);
    }
}
