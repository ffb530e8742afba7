package io.agentgateway.projector.readmodel;

/**
 * One parameterized SQL statement of the projection (named parameters). {@code appendOnly}
 * statements insert immutable rows keyed by a derived id into tables without foreign keys; they
 * commute with every other write, so all of them of one batch go into a single JDBC batch.
 * {@code amendingAppended} statements change a column of such a row that nothing else writes (an
 * audit entry marked undelivered): idempotent and commuting with every event-order write, they run
 * after the append-only inserts of their batch, which may hold the row they amend. Every other
 * statement changes current state and runs in event order.
 */
public final class SqlStatement {
    private final String sql;
    private final boolean appendOnly;
    private final boolean amendsAppended;
    private final StagedInsertSql staged;

    private SqlStatement(String sql, boolean appendOnly, boolean amendsAppended, StagedInsertSql staged) {
        this.sql = sql;
        this.appendOnly = appendOnly;
        this.amendsAppended = amendsAppended;
        this.staged = staged;
    }

    /** Also derives the statement's bulk form here, so a statement that has none fails when its class loads. */
    static SqlStatement appendOnly(String sql) {
        return new SqlStatement(sql, true, false, StagedInsertSql.of(sql));
    }

    static SqlStatement inEventOrder(String sql) {
        return new SqlStatement(sql, false, false, null);
    }

    /** Amends rows that append-only statements insert; runs after them (see the class comment). */
    static SqlStatement amendingAppended(String sql) {
        return new SqlStatement(sql, false, true, null);
    }

    /** The bulk form of an append-only statement (null for the others). */
    StagedInsertSql staged() {
        return staged;
    }

    public String sql() {
        return sql;
    }

    public boolean appendOnly() {
        return appendOnly;
    }

    public boolean amendsAppended() {
        return amendsAppended;
    }
}
