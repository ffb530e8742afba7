package io.agentgateway.projector.consume;

import java.sql.BatchUpdateException;
import java.sql.SQLException;

/**
 * The SQLState of a database failure: what the projector logs instead of the database's message,
 * which quotes values of the refused row.
 */
public final class SqlStateOf {
    private SqlStateOf() {}

    public static String failure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BatchUpdateException batch && batch.getNextException() != null) {
                return batch.getNextException().getSQLState();
            }
            if (cause instanceof SQLException sql) {
                return sql.getSQLState();
            }
        }
        return "unknown";
    }
}
