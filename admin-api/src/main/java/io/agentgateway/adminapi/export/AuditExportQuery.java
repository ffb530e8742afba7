package io.agentgateway.adminapi.export;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The export's SQL: the filter's rows oldest first, ordered by (occurred_at, id) so that rows with the
 * same timestamp come in a stable order and two exports of the same range are byte-identical.
 */
final class AuditExportQuery {
    private AuditExportQuery() {}

    static PreparedStatement prepare(Connection connection, AuditExportFilter filter) throws SQLException {
        StringBuilder sql = new StringBuilder("select ").append(AuditExportColumn.selectList())
                .append(" from audit_log where workspace_id = ? and occurred_at >= ? and occurred_at < ?");
        List<Object> params = new ArrayList<>();
        params.add(filter.workspaceId());
        params.add(filter.from().atOffset(ZoneOffset.UTC));
        params.add(filter.to().atOffset(ZoneOffset.UTC));
        if (filter.correlationId() != null) {
            sql.append(" and correlation_id = ?");
            params.add(filter.correlationId());
        }
        if (filter.agentId() != null) {
            sql.append(" and agent_id = ?");
            params.add(filter.agentId());
        }
        if (filter.tool() != null) {
            sql.append(" and tool = ?");
            params.add(filter.tool().wire());
        }
        if (filter.decision() != null) {
            sql.append(" and decision = ?");
            params.add(filter.decision().wire());
        }
        if (filter.action() != null) {
            sql.append(" and action = ?");
            params.add(filter.action());
        }
        if (filter.riskLevel() != null) {
            sql.append(" and risk_level = ?");
            params.add(filter.riskLevel().wire());
        }
        if (filter.source() != null) {
            sql.append(" and source = ?");
            params.add(filter.source().wire());
        }
        if (filter.undelivered() != null) {
            sql.append(filter.undelivered() ? " and undelivered" : " and not undelivered");
        }
        sql.append(" order by occurred_at, id");
        PreparedStatement statement = connection.prepareStatement(sql.toString());
        try {
            for (int i = 0; i < params.size(); i++) {
                statement.setObject(i + 1, params.get(i));
            }
            return statement;
        } catch (SQLException e) {
            statement.close();
            throw e;
        }
    }
}
