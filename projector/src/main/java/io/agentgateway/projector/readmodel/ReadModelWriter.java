package io.agentgateway.projector.readmodel;

import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes the rows of a batch of events in one transaction ({@link WriteBatches}). The transaction
 * first takes the {@link ReadModelSwitchLock} shared, so a rebuild can swap the tables between two
 * batches and never in the middle of one.
 */
@Component
public class ReadModelWriter {
    private final WriteBatches batches;
    private final TransactionTemplate transaction;

    public ReadModelWriter(DataSource dataSource) {
        this.batches = new WriteBatches(dataSource);
        // Our own transaction manager on our DataSource: another starter on the classpath (the
        // launcher runs every module) may add a second PlatformTransactionManager, a Kafka one say.
        this.transaction = new TransactionTemplate(new JdbcTransactionManager(dataSource));
    }

    /** All rows of {@code writes} are committed together, or none is. */
    public void writeInOneTransaction(List<Write> writes) {
        transaction.executeWithoutResult(status -> {
            batches.executeStatement(ReadModelSwitchLock.SHARED);
            batches.execute(writes);
        });
    }
}
