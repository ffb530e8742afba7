package io.agentgateway.ingress.web;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

/**
 * Whether a failure means the read model (PostgreSQL) cannot be reached: no connection within Hikari's
 * connection timeout, a connection lost or refused, the server shutting down. Those are a 503, fast;
 * everything else stays what it was (a bug is still a 500 and an ERROR).
 */
public final class ReadModelFailures {
    private ReadModelFailures() {}

    public static boolean isUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CannotGetJdbcConnectionException
                    || t instanceof DataAccessResourceFailureException
                    || t instanceof TransientDataAccessResourceException
                    || t instanceof SQLTransientConnectionException) {
                return true;
            }
            // SQLSTATE class 08: connection exception; 57P01-57P03: the server is shutting down or starting
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a read failed because the read-model schema is behind this ingress: a table or column it reads is
     * not there yet (SQLSTATE 42P01, 42703), as when an ingress of a new release starts before the projector of
     * that release has applied its migrations. A deployment's state, not a bug of this request: a 503 too.
     */
    public static boolean isSchemaBehind(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && ("42P01".equals(sql.getSQLState()) || "42703".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    /** The failure's class and SQL state, without its message's detail (it can quote a statement). */
    public static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (!text.isEmpty()) {
                text.append(" <- ");
            }
            text.append(t.getClass().getSimpleName());
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                text.append(" (").append(sql.getSQLState()).append(')');
            }
        }
        return text.toString();
    }
}
