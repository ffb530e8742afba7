package io.agentgateway.adminapi.evidence;

import io.agentgateway.evidence.Entry;
import io.agentgateway.evidence.EntryFields;
import io.agentgateway.evidence.EntryValues;
import io.agentgateway.evidence.ExportedEntry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * An audit row's entry, recomputed from its columns: every field of {@link EntryFields#AUDIT_ROW} read from the
 * {@code audit_log} column of the same name and written as {@link EntryValues} says (what the decision stream sealed
 * from the event the row was projected from). The one column that may change after sealing, {@code undelivered},
 * is read as sealed: false when a later {@code evaluation_undelivered} entry marked the row.
 */
final class AuditEntryRows {
    private AuditEntryRows() {}

    /** The select list of {@code audit_log a}, each column aliased {@code a_<field>}. */
    static final String COLUMNS = """
            a.id::text as a_id, a.sequence as a_sequence, a.workspace_id::text as a_workspace_id,
            a.event_id::text as a_event_id, a.command_id as a_command_id, a.correlation_id as a_correlation_id,
            a.occurred_at as a_occurred_at, a.kind as a_kind, a.tool as a_tool, a.action as a_action,
            a.risk_level as a_risk_level, a.supplied_risk_level as a_supplied_risk_level,
            a.risk_classification as a_risk_classification, a.risk_overridden_by_caller as a_risk_overridden_by_caller,
            a.decision as a_decision, a.reason as a_reason, a.matched_policy_id as a_matched_policy_id,
            a.matched_policy_name as a_matched_policy_name, a.approval_request_id::text as a_approval_request_id,
            a.agent_id as a_agent_id, a.agent_name as a_agent_name, a.agent_identity as a_agent_identity,
            a.resource_type as a_resource_type, a.resource_id as a_resource_id, a.requested_by as a_requested_by,
            a.source as a_source, a.actor_user_id as a_actor_user_id, a.payload_truncated as a_payload_truncated,
            a.payload_bytes as a_payload_bytes, a.payload_sha256 as a_payload_sha256,
            a.payload_excerpt_sha256 as a_payload_excerpt_sha256, a.policy_set_version as a_policy_set_version,
            a.workspace_version as a_workspace_version, a.undelivered as a_undelivered,
            a.payload_excerpt as a_payload_excerpt, a.payload_erased_at is not null as a_payload_erased,
            a.leaf_hash as a_leaf_hash
            """;

    private static final Set<String> TIMES = Set.of(EntryFields.OCCURRED_AT);
    private static final Set<String> BOOLEANS = Set.of(EntryFields.RISK_OVERRIDDEN_BY_CALLER, EntryFields.PAYLOAD_TRUNCATED,
            EntryFields.UNDELIVERED);
    private static final Set<String> NUMBERS = Set.of(EntryFields.SEQUENCE, EntryFields.PAYLOAD_BYTES,
            EntryFields.POLICY_SET_VERSION, EntryFields.WORKSPACE_VERSION);

    /**
     * The row of the current result set as an exported entry (its kind the row's; the sealed leaf and proof are the
     * caller's). {@code markedUndelivered}: a later entry marked the row undelivered.
     */
    static ExportedEntry read(ResultSet row, byte[] sealedLeaf, boolean markedUndelivered) throws SQLException {
        Map<String, String> fields = new HashMap<>(64);
        for (String field : EntryFields.AUDIT_ROW) {
            String column = "a_" + field;
            String value;
            if (TIMES.contains(field)) {
                OffsetDateTime time = row.getObject(column, OffsetDateTime.class);
                value = time == null ? null : EntryValues.instant(time.toInstant());
            } else if (BOOLEANS.contains(field)) {
                boolean flag = row.getBoolean(column);
                value = row.wasNull() ? null : EntryValues.bool(flag);
            } else if (NUMBERS.contains(field)) {
                long number = row.getLong(column);
                value = row.wasNull() ? null : EntryValues.number(number);
            } else {
                value = row.getString(column);
            }
            fields.put(field, value);
        }
        if (markedUndelivered) {
            // sealed before the mark: the mark is an entry of its own
            fields.put(EntryFields.UNDELIVERED, EntryValues.bool(false));
        }
        Entry entry = Entry.of(row.getString("a_kind"), fields);
        return new ExportedEntry(entry, sealedLeaf, row.getString("a_payload_excerpt"), row.getBoolean("a_payload_erased"),
                null);
    }
}
