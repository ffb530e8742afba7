package io.agentgateway.adminapi.evidence;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Runs reads of the log in one read-only, repeatable-read transaction, rolled back at the end: the entries, nodes and
 * checkpoints a check or an export sees are of one moment, and the driver streams result sets only inside a
 * transaction. The connection's settings are restored afterwards.
 */
final class ReadOnlySnapshot {
    static final String APPLICATION_NAME = "gateway-evidence";

    private ReadOnlySnapshot() {}

    @FunctionalInterface
    interface Work<T> {
        T run() throws SQLException;
    }

    static <T> T run(Connection connection, Work<T> work) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        boolean readOnly = connection.isReadOnly();
        int isolation = connection.getTransactionIsolation();
        Throwable failure = null;
        try {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            try (Statement session = connection.createStatement()) {
                session.execute("set local application_name = '" + APPLICATION_NAME + "'");
            }
            return work.run();
        } catch (SQLException | RuntimeException e) {
            failure = e;
            throw e;
        } finally {
            try {
                connection.rollback();
                connection.setAutoCommit(autoCommit);
                connection.setReadOnly(readOnly);
                connection.setTransactionIsolation(isolation);
            } catch (SQLException e) {
                if (failure == null) {
                    throw e;
                }
                failure.addSuppressed(e);
            }
        }
    }
}
