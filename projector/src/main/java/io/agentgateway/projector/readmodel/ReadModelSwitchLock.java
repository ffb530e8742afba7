package io.agentgateway.projector.readmodel;

/**
 * The PostgreSQL advisory lock that lets a rebuild swap the read-model tables under a running
 * projector without losing an event. Every transaction of the live projector takes it shared, as its
 * first statement ({@link ReadModelWriter}); the rebuild takes it exclusively in the transaction that
 * applies the last events and swaps the tables. So no live write is half-way while the tables move,
 * and a live batch that waits for the lock writes, once it gets it, into the new tables (its
 * statements resolve the unqualified table names only when they run).
 *
 * <p>Transaction-level locks: they are released by the commit or rollback, also when a process dies.
 */
public final class ReadModelSwitchLock {
    /** An arbitrary constant ("agw-rmsw" in ASCII); every process writing the read models must use the same. */
    public static final long KEY = 0x6167772d726d7377L;

    /** Taken by each live projection transaction; many can hold it at once. */
    public static final String SHARED = "select pg_advisory_xact_lock_shared(" + KEY + ")";

    /** Taken by the rebuild's switch: waits for the live transactions in flight and holds new ones back. */
    public static final String EXCLUSIVE = "select pg_advisory_xact_lock(" + KEY + ")";

    private ReadModelSwitchLock() {}
}
