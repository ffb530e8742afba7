package io.agentgateway.gatewayconfig;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Whether a failure means PostgreSQL cannot be reached now, as every service that reads or writes it must tell
 * (the ingress answers 503, the approval executor and the notifier wait for it): no connection within the pool's
 * timeout, a connection refused or lost (SQLSTATE class 08), the server shutting down or starting (57P01-57P03).
 * Read from the JDBC exceptions in the cause chain, whatever Spring wrapped them in. Nothing here quotes an
 * exception's message: a database's message can quote a statement or a row.
 */
public final class UnreachableDatabase {
    private UnreachableDatabase() {}

    public static boolean isCause(Throwable failure) {
        return causes(failure).anyMatch(t -> t instanceof SQLTransientConnectionException
                || t instanceof SQLNonTransientConnectionException
                || t instanceof SQLException sql && sql.getSQLState() != null
                        && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P")));
    }

    /** The failure's classes with their SQLSTATEs, outermost first, e.g. {@code CannotGetJdbcConnectionException <- SQLTransientConnectionException (08001)}. */
    public static String describe(Throwable failure) {
        return causes(failure).map(t -> t.getClass().getSimpleName()
                        + (t instanceof SQLException sql && sql.getSQLState() != null ? " (" + sql.getSQLState() + ")" : ""))
                .collect(Collectors.joining(" <- "));
    }

    /** The failure and its causes, outermost first (a cause that names itself ends the chain), for other tests of a JDBC failure. */
    public static Stream<Throwable> causes(Throwable failure) {
        return Stream.iterate(failure, Objects::nonNull, t -> t.getCause() == t ? null : t.getCause());
    }
}
