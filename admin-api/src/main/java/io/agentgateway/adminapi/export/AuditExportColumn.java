package io.agentgateway.adminapi.export;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The columns of an audit export, in file order: the fields of the audit-log query API (same names,
 * same order), then the versions of the workspace's policies and configuration each decision was
 * made against. The field name is the camel case of the SQL column.
 */
enum AuditExportColumn {
    ID("id", Kind.TEXT),
    OCCURRED_AT("occurred_at", Kind.TIMESTAMP),
    KIND("kind", Kind.TEXT),
    TOOL("tool", Kind.TEXT),
    ACTION("action", Kind.TEXT),
    RISK_LEVEL("risk_level", Kind.TEXT),
    SUPPLIED_RISK_LEVEL("supplied_risk_level", Kind.TEXT),
    RISK_CLASSIFICATION("risk_classification", Kind.TEXT),
    RISK_OVERRIDDEN_BY_CALLER("risk_overridden_by_caller", Kind.BOOLEAN),
    DECISION("decision", Kind.TEXT),
    REASON("reason", Kind.TEXT),
    MATCHED_POLICY_ID("matched_policy_id", Kind.TEXT),
    MATCHED_POLICY_NAME("matched_policy_name", Kind.TEXT),
    APPROVAL_REQUEST_ID("approval_request_id", Kind.TEXT),
    AGENT_ID("agent_id", Kind.TEXT),
    AGENT_NAME("agent_name", Kind.TEXT),
    RESOURCE_TYPE("resource_type", Kind.TEXT),
    RESOURCE_ID("resource_id", Kind.TEXT),
    REQUESTED_BY("requested_by", Kind.TEXT),
    SOURCE("source", Kind.TEXT),
    ACTOR_USER_ID("actor_user_id", Kind.TEXT),
    CORRELATION_ID("correlation_id", Kind.TEXT),
    COMMAND_ID("command_id", Kind.TEXT),
    PAYLOAD_EXCERPT("payload_excerpt", Kind.TEXT),
    PAYLOAD_TRUNCATED("payload_truncated", Kind.BOOLEAN),
    PAYLOAD_BYTES("payload_bytes", Kind.NUMBER),
    POLICY_SET_VERSION("policy_set_version", Kind.NUMBER),
    WORKSPACE_VERSION("workspace_version", Kind.NUMBER),
    // the answer reached nobody: decided after the caller's deadline, or its caller got 503/504 or hung up
    UNDELIVERED("undelivered", Kind.BOOLEAN),
    // bound: the agent id was the one the API key is bound to; asserted: only named by the caller
    AGENT_IDENTITY("agent_identity", Kind.TEXT),
    // policy conditions that could not be evaluated, and what the fail-closed rule made of each (a JSON array)
    CONDITION_ERRORS("condition_errors", Kind.JSON);

    /**
     * How a column is read from JDBC and written: text, an ISO-8601 instant, a boolean, an integer, or a JSON value
     * (written as JSON in JSON Lines, as its text in CSV).
     */
    enum Kind { TEXT, TIMESTAMP, BOOLEAN, NUMBER, JSON }

    /** Every column in file order; the result set's column i+1 is {@code ALL[i]}. */
    static final AuditExportColumn[] ALL = values();

    private final String sqlColumn;
    private final String field;
    private final Kind kind;

    AuditExportColumn(String sqlColumn, Kind kind) {
        this.sqlColumn = sqlColumn;
        this.field = camelCase(sqlColumn);
        this.kind = kind;
    }

    String sqlColumn() {
        return sqlColumn;
    }

    /** The JSON property and CSV header name. */
    String field() {
        return field;
    }

    Kind kind() {
        return kind;
    }

    static String selectList() {
        return Arrays.stream(ALL).map(AuditExportColumn::sqlColumn).collect(Collectors.joining(", "));
    }

    static String[] fields() {
        return Arrays.stream(ALL).map(AuditExportColumn::field).toArray(String[]::new);
    }

    private static String camelCase(String snake) {
        StringBuilder camel = new StringBuilder(snake.length());
        boolean upper = false;
        for (char c : snake.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                camel.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return camel.toString();
    }
}
