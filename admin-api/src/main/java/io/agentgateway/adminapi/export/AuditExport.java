package io.agentgateway.adminapi.export;

import java.io.IOException;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Streams an audit trail from PostgreSQL to a stream, in constant memory whatever its size: the rows
 * come through a server-side cursor {@value #FETCH_SIZE} at a time and each is written out before
 * the next is read. Used by the admin API's export endpoint, the launcher's {@code export} command
 * and the export benchmark, so all three produce the same bytes.
 */
public final class AuditExport {
    /**
     * Rows per round trip of the cursor, the most held in memory at once (a payload excerpt is at
     * most a few KiB, so a batch stays around a MiB).
     */
    public static final int FETCH_SIZE = 500;
    /** Shown in pg_stat_activity while an export runs, so an operator can tell what holds a transaction open. */
    public static final String APPLICATION_NAME = "gateway-audit-export";

    private AuditExport() {}

    /**
     * Writes every row of {@code filter} in {@code format}, ordered by (occurred_at, id), and returns how
     * many rows were written. The PostgreSQL driver streams only inside a transaction, so this runs in a
     * read-only transaction of its own, rolled back at the end (also when the caller's stream fails);
     * the connection's auto-commit and read-only settings are restored. {@code out} is flushed, not
     * closed. Nothing is written before the query has run, so a failing query leaves {@code out} empty.
     */
    public static long write(Connection connection, AuditExportFilter filter, AuditExportFormat format, OutputStream out)
            throws SQLException, IOException {
        boolean autoCommit = connection.getAutoCommit();
        boolean readOnly = connection.isReadOnly();
        Throwable failure = null;
        try {
            connection.setReadOnly(true);
            connection.setAutoCommit(false);
            try (Statement session = connection.createStatement()) {
                session.execute("set local application_name = '" + APPLICATION_NAME + "'");
            }
            try (PreparedStatement query = AuditExportQuery.prepare(connection, filter)) {
                query.setFetchSize(FETCH_SIZE);
                try (ResultSet rows = query.executeQuery()) {
                    AuditRowWriter writer = format.writerTo(out);
                    long count = 0;
                    while (rows.next()) {
                        writer.write(rows);
                        count++;
                    }
                    writer.finish();
                    return count;
                }
            }
        } catch (SQLException | IOException | RuntimeException e) {
            failure = e;
            throw e;
        } finally {
            restore(connection, autoCommit, readOnly, failure);
        }
    }

    /** Ends the transaction (and with it the cursor); a failure here must not hide the one that got us here. */
    private static void restore(Connection connection, boolean autoCommit, boolean readOnly, Throwable failure)
            throws SQLException {
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback();
                connection.setAutoCommit(autoCommit);
            }
            connection.setReadOnly(readOnly);
        } catch (SQLException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }
}
