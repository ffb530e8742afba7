package io.agentgateway.ingress.web;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

/**
 * Whether a failure means the read model (PostgreSQL) cannot serve reads now: no connection within Hikari's
 * connection timeout, a connection lost or refused, the server shutting down, or a schema behind this ingress.
 * Those are a 503, fast; everything else stays what it was (a bug is still a 500 and an ERROR).
 */
public final class ReadModelFailures {
    private ReadModelFailures() {}

    /**
     * Why a read cannot be served now, or null when the failure is something else (a bug: a 500 and an ERROR). Either
     * reason is a 503: PostgreSQL down or unreachable, or its schema behind this ingress (a table or column it reads
     * not there yet, SQLSTATE 42P01 / 42703: an ingress of a new release started before the projector of that release
     * applied its migrations), a deployment's state rather than this request's fault.
     */
    public static String whyUnavailable(Throwable failure) {
        if (causes(failure).anyMatch(ReadModelFailures::isConnectionFailure)) {
            return "unavailable";
        }
        if (causes(failure).anyMatch(t -> t instanceof SQLException sql
                && ("42P01".equals(sql.getSQLState()) || "42703".equals(sql.getSQLState())))) {
            return "schema behind this ingress (start the projector of this release first)";
        }
        return null;
    }

    private static boolean isConnectionFailure(Throwable t) {
        return t instanceof CannotGetJdbcConnectionException
                || t instanceof DataAccessResourceFailureException
                || t instanceof TransientDataAccessResourceException
                || t instanceof SQLTransientConnectionException
                // SQLSTATE class 08: connection exception; 57P01-57P03: the server is shutting down or starting
                || t instanceof SQLException sql && sql.getSQLState() != null
                        && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"));
    }

    private static Stream<Throwable> causes(Throwable failure) {
        return Stream.iterate(failure, Objects::nonNull, t -> t.getCause() == t ? null : t.getCause());
    }

    /** The failure's class and SQL state, without its message's detail (it can quote a statement). */
    public static String describe(Throwable failure) {
        return causes(failure).map(t -> t.getClass().getSimpleName()
                        + (t instanceof SQLException sql && sql.getSQLState() != null ? " (" + sql.getSQLState() + ")" : ""))
                .collect(Collectors.joining(" <- "));
    }
}
