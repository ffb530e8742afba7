package io.agentgateway.projector.readmodel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Executes the writes of a batch of events in one transaction with JDBC batches: state writes in
 * event order (consecutive writes of one statement share a JDBC batch), then the append-only inserts
 * grouped per statement (they commute, so a stream of audit rows becomes one batch however the
 * approvals interleave). pgjdbc pipelines a JDBC batch, so a whole batch costs a few round trips.
 */
@Component
public class ReadModelWriter {
    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transaction;

    public ReadModelWriter(DataSource dataSource) {
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
        // Our own transaction manager on our DataSource: another starter on the classpath (the
        // launcher runs every module) may add a second PlatformTransactionManager, a Kafka one say.
        this.transaction = new TransactionTemplate(new JdbcTransactionManager(dataSource));
    }

    /** All rows of {@code writes} are committed together, or none is. */
    public void writeInOneTransaction(List<Write> writes) {
        transaction.executeWithoutResult(status -> execute(writes));
    }

    private void execute(List<Write> writes) {
        Map<SqlStatement, List<SqlParameterSource>> appendOnly = new LinkedHashMap<>();
        SqlStatement runStatement = null;
        List<SqlParameterSource> run = new ArrayList<>();
        for (Write write : writes) {
            if (write.statement().appendOnly()) {
                appendOnly.computeIfAbsent(write.statement(), s -> new ArrayList<>()).add(write.params());
                continue;
            }
            if (write.statement() != runStatement) {
                executeBatch(runStatement, run);
                runStatement = write.statement();
                run = new ArrayList<>();
            }
            run.add(write.params());
        }
        executeBatch(runStatement, run);
        appendOnly.forEach(this::executeBatch);
    }

    private void executeBatch(SqlStatement statement, List<SqlParameterSource> params) {
        if (statement != null && !params.isEmpty()) {
            jdbc.batchUpdate(statement.sql(), params.toArray(SqlParameterSource[]::new));
        }
    }
}
