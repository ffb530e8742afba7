package io.agentgateway.projector.readmodel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

/**
 * Executes writes with JDBC batches inside the caller's transaction: state writes in event order
 * (consecutive writes of one statement share a JDBC batch), then the append-only inserts grouped per
 * statement (they commute, so a stream of audit rows becomes one batch however the approvals
 * interleave). pgjdbc pipelines a JDBC batch, so a whole batch costs a few round trips.
 *
 * <p>Shared by the live projector ({@link ReadModelWriter}) and the rebuild, so that a rebuilt row
 * is written by exactly the statements that write the live one.
 */
public final class WriteBatches {
    private final NamedParameterJdbcTemplate jdbc;
    private final CopyStagedInserts staging;

    private WriteBatches(DataSource dataSource, boolean bulk) {
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
        this.staging = bulk ? new CopyStagedInserts(jdbc.getJdbcTemplate()) : null;
    }

    /** For the live projector: every write is a bound statement of a JDBC batch. */
    public WriteBatches(DataSource dataSource) {
        this(dataSource, false);
    }

    /**
     * For loading many events into fresh tables on one connection: the append-only inserts go through
     * COPY and a staging table ({@link StagedInsertSql}), with the same expressions, so the same rows.
     */
    public static WriteBatches forBulkLoad(DataSource singleConnection) {
        return new WriteBatches(singleConnection, true);
    }

    /** Runs in whatever transaction the data source's connection is in; commits nothing itself. */
    public void execute(List<Write> writes) {
        Map<SqlStatement, List<SqlParameterSource>> appendOnly = new LinkedHashMap<>();
        Map<SqlStatement, List<SqlParameterSource>> amendments = new LinkedHashMap<>();
        SqlStatement runStatement = null;
        List<SqlParameterSource> run = new ArrayList<>();
        for (Write write : latestOfEachSeries(writes)) {
            if (write.statement().appendOnly()) {
                appendOnly.computeIfAbsent(write.statement(), s -> new ArrayList<>()).add(write.params());
                continue;
            }
            if (write.statement().amendsAppended()) {
                amendments.computeIfAbsent(write.statement(), s -> new ArrayList<>()).add(write.params());
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
        appendOnly.forEach(this::executeAppendOnly);
        // after the rows they amend, which this batch may have inserted
        amendments.forEach(this::executeBatch);
    }

    /**
     * The writes without those a later write of the same series includes ({@link Write.Coalescing}): of one key, the
     * one at the highest position stays, where the first of them stood.
     */
    static List<Write> latestOfEachSeries(List<Write> writes) {
        Map<String, Write> latest = null;
        for (Write write : writes) {
            if (write.coalescing() != null) {
                if (latest == null) {
                    latest = new HashMap<>();
                }
                latest.merge(write.coalescing().key(), write,
                        (kept, next) -> next.coalescing().position() > kept.coalescing().position() ? next : kept);
            }
        }
        if (latest == null) {
            return writes;
        }
        List<Write> kept = new ArrayList<>(writes.size());
        for (Write write : writes) {
            if (write.coalescing() == null) {
                kept.add(write);
            } else {
                Write chosen = latest.remove(write.coalescing().key());
                if (chosen != null) {
                    kept.add(chosen);
                }
            }
        }
        return kept;
    }

    private void executeAppendOnly(SqlStatement statement, List<SqlParameterSource> params) {
        if (staging != null && CopyStagedInserts.canStage(statement, params.get(0))) {
            staging.insert(statement, params);
        } else {
            executeBatch(statement, params);
        }
    }

    /** A statement that is not a write of an event (a lock), in the same transaction. */
    void executeStatement(String sql) {
        jdbc.getJdbcOperations().execute(sql);
    }

    private void executeBatch(SqlStatement statement, List<SqlParameterSource> params) {
        if (statement != null && !params.isEmpty()) {
            jdbc.batchUpdate(statement.sql(), params.toArray(SqlParameterSource[]::new));
        }
    }
}
