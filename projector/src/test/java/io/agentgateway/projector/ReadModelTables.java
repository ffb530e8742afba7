package io.agentgateway.projector;

import java.sql.Array;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Every read-model table of a schema as plain values, in primary-key order, for comparing two
 * projections row for row. {@code audit_log.projected_at} is left out: it is when the row was written
 * ({@code default now()}), bookkeeping that legitimately differs between a live projection and a
 * rebuild; every other column of every table is compared.
 */
final class ReadModelTables {
    /** Table to its primary key. */
    static final Map<String, String> TABLES = tables();

    /** Columns that say when a row was written, not what the events say. */
    static final Set<String> BOOKKEEPING = Set.of("projected_at");

    private ReadModelTables() {}

    private static Map<String, String> tables() {
        Map<String, String> tables = new LinkedHashMap<>();
        tables.put("workspaces", "id");
        tables.put("workspace_members", "workspace_id, user_id");
        tables.put("api_keys", "key_id");
        tables.put("policies", "workspace_id, policy_id");
        tables.put("audit_log", "id");
        tables.put("approval_requests", "id");
        tables.put("kill_switch_history", "audit_log_id");
        tables.put("tool_connections", "workspace_id, tool");
        tables.put("webhook_events", "id");
        // the Merkle logs' copies: a rebuild from the event log gives the same leaves, nodes and checkpoints
        tables.put("evidence_entries", "workspace_id, sequence");
        tables.put("evidence_nodes", "workspace_id, level, node_index");
        tables.put("evidence_checkpoints", "event_id");
        tables.put("admin_changes", "event_id");
        return tables;
    }

    /** Table name to its rows. */
    static Map<String, List<Map<String, Object>>> read(JdbcTemplate jdbc, String schema) {
        Map<String, List<Map<String, Object>>> snapshot = new LinkedHashMap<>();
        TABLES.forEach((table, key) -> snapshot.put(table,
                jdbc.queryForList("select * from " + schema + "." + table + " order by " + key).stream()
                        .map(ReadModelTables::plainValues).toList()));
        return snapshot;
    }

    /** The tables a schema has (so a table added by a later migration cannot slip past the comparison). */
    static List<String> tableNames(JdbcTemplate jdbc, String schema) {
        return jdbc.queryForList("select tablename from pg_tables where schemaname = ? order by tablename",
                String.class, schema);
    }

    private static Map<String, Object> plainValues(Map<String, Object> row) {
        Map<String, Object> values = new LinkedHashMap<>();
        row.forEach((column, value) -> {
            if (!BOOKKEEPING.contains(column)) {
                values.put(column, plain(value));
            }
        });
        return values;
    }

    /** JDBC arrays compare by identity: turn them into lists. */
    private static Object plain(Object value) {
        if (value instanceof Array array) {
            try {
                return new ArrayList<>(Arrays.asList((Object[]) array.getArray()));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        return value;
    }
}
