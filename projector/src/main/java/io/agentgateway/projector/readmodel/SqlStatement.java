package io.agentgateway.projector.readmodel;

/**
 * One parameterized SQL statement of the projection (named parameters). {@code appendOnly}
 * statements insert immutable rows keyed by a derived id into tables without foreign keys; they
 * commute with every other write, so all of them of one batch go into a single JDBC batch. Every
 * other statement changes current state and runs in event order.
 */
public final class SqlStatement {
    private final String sql;
    private final boolean appendOnly;

    private SqlStatement(String sql, boolean appendOnly) {
        this.sql = sql;
        this.appendOnly = appendOnly;
    }

    static SqlStatement appendOnly(String sql) {
        return new SqlStatement(sql, true);
    }

    static SqlStatement inEventOrder(String sql) {
        return new SqlStatement(sql, false);
    }

    public String sql() {
        return sql;
    }

    public boolean appendOnly() {
        return appendOnly;
    }
}
