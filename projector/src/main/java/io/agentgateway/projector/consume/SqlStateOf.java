package io.agentgateway.projector.consume;

import java.sql.BatchUpdateException;
import java.sql.SQLException;

/**
 * The SQLState of a database failure: what the projector logs instead of the database's message,
 * which quotes values of the refused row.
 */
public final class SqlStateOf {
    /** What {@link #failure} answers when no SQLException in the cause chain has a SQLState. */
    public static final String UNKNOWN = "unknown";

    private SqlStateOf() {}

    public static String failure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BatchUpdateException batch && batch.getNextException() != null) {
                return batch.getNextException().getSQLState();
            }
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
        }
        return UNKNOWN;
    }
}
