package io.agentgateway.httpedge.web;

import io.agentgateway.gatewayconfig.UnreachableDatabase;
import java.sql.SQLException;

/**
 * Whether a failure means the read model (PostgreSQL) cannot serve reads now: unreachable
 * ({@link UnreachableDatabase}: no connection within Hikari's connection timeout, a connection lost or refused, the
 * server shutting down), or a schema behind this ingress. Those are a 503, fast; everything else stays what it was (a
 * bug is still a 500 and an ERROR).
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
        if (UnreachableDatabase.isCause(failure)) {
            return "unavailable";
        }
        if (UnreachableDatabase.causes(failure).anyMatch(t -> t instanceof SQLException sql
                && ("42P01".equals(sql.getSQLState()) || "42703".equals(sql.getSQLState())))) {
            return "schema behind this ingress (start the projector of this release first)";
        }
        return null;
    }

    /** The failure's class and SQL state, without its message's detail (it can quote a statement). */
    public static String describe(Throwable failure) {
        return UnreachableDatabase.describe(failure);
    }
}
