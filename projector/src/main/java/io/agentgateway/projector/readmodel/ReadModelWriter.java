package io.agentgateway.projector.readmodel;

import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;

/**
 * Writes the rows of a batch of events in one transaction ({@link WriteBatches}). The transaction
 * first takes the {@link ReadModelSwitchLock} shared, so a rebuild can swap the tables between two
 * batches and never in the middle of one.
 */
@Component
public class ReadModelWriter {
    private final WriteBatches batches;
    private final PlatformTransactionManager transactions;
    private final CommittedPositions committed = new CommittedPositions(COMMITTED_SERIES);
    /** Series remembered (an API key's last use: one per key in use); past this the least recently written is forgotten. */
    static final int COMMITTED_SERIES = 65_536;

    public ReadModelWriter(DataSource dataSource) {
        this.batches = new WriteBatches(dataSource);
        // Our own transaction manager on our DataSource: another starter on the classpath (the
        // launcher runs every module) may add a second PlatformTransactionManager, a Kafka one say.
        // DataSourceTransactionManager, not JdbcTransactionManager: a failed commit stays a
        // TransactionException, for which Spring does not try a rollback on the dead connection and
        // log its failure at ERROR.
        this.transactions = new DataSourceTransactionManager(dataSource);
    }

    /**
     * All rows of {@code writes} are committed together, or none is. The failure thrown is the one that
     * stopped the writes (its SQLState says why); a rollback that fails too, as it does on a connection
     * PostgreSQL dropped, is attached to it as suppressed rather than replacing it (Spring's
     * TransactionTemplate would throw the rollback's failure and log the original at ERROR with its stack).
     */
    public void writeInOneTransaction(List<Write> writes) {
        List<Write> due = committed.notYetCommitted(WriteBatches.latestOfEachSeries(writes));
        TransactionStatus transaction = transactions.getTransaction(TransactionDefinition.withDefaults());
        try {
            batches.executeStatement(ReadModelSwitchLock.SHARED);
            batches.execute(due);
        } catch (RuntimeException | Error failed) {
            try {
                transactions.rollback(transaction);
            } catch (RuntimeException rollbackFailed) {
                failed.addSuppressed(rollbackFailed);
            }
            throw failed;
        }
        transactions.commit(transaction);
        // only once committed: a batch rolled back is written again in full when it is retried
        committed.remember(due);
    }
}
