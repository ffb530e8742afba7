package io.agentgateway.projector.readmodel;

import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

/**
 * Runs the append-only writes of a bulk load in their {@link StagedInsertSql bulk form}: the rows are
 * COPYed (text format) into a temporary staging table typed like the parameters, then the statement
 * inserts them from there and the staging table is emptied, all in the caller's transaction. Only
 * parameters of plain types can be staged; a statement with others (an array) goes the JDBC way.
 */
final class CopyStagedInserts {
    /** SQL type of a parameter to the column type that holds it exactly as the bound parameter would. */
    private static final Map<Integer, String> COLUMN_TYPES = Map.of(
            Types.VARCHAR, "text",
            Types.TIMESTAMP_WITH_TIMEZONE, "timestamptz",
            Types.BIGINT, "bigint",
            Types.INTEGER, "integer",
            Types.BOOLEAN, "boolean");
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX");

    private final JdbcTemplate jdbc;

    CopyStagedInserts(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Whether every parameter of the statement has a type the staging table can hold. */
    static boolean canStage(SqlStatement statement, SqlParameterSource row) {
        if (statement.staged() == null) {
            return false;
        }
        for (String parameter : statement.staged().parameters()) {
            if (!row.hasValue(parameter) || !COLUMN_TYPES.containsKey(row.getSqlType(parameter))) {
                return false;
            }
        }
        return true;
    }

    void insert(SqlStatement statement, List<SqlParameterSource> rows) {
        StagedInsertSql staged = statement.staged();
        SqlParameterSource first = rows.get(0);
        StringJoiner columns = new StringJoiner(", ");
        StringJoiner names = new StringJoiner(", ");
        for (String parameter : staged.parameters()) {
            columns.add(parameter + " " + COLUMN_TYPES.get(first.getSqlType(parameter)));
            names.add(parameter);
        }
        // created in the transaction that uses it, so a rollback to a savepoint cannot leave it missing
        jdbc.execute("create temporary table if not exists " + staged.stagingTable().substring("pg_temp.".length())
                + " (" + columns + ")");
        jdbc.execute((ConnectionCallback<Long>) connection -> {
            CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI()
                    .copyIn("copy " + staged.stagingTable() + " (" + names + ") from stdin");
            try {
                // row by row: one big buffer per batch would be a humongous object for the garbage collector
                StringBuilder line = new StringBuilder(1024);
                for (SqlParameterSource row : rows) {
                    line.setLength(0);
                    appendRow(line, staged.parameters(), row);
                    byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
                    copy.writeToCopy(bytes, 0, bytes.length);
                }
                return copy.endCopy();
            } finally {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
            }
        });
        jdbc.update(staged.insertFromStaging());
        jdbc.execute("truncate " + staged.stagingTable());
    }

    private static void appendRow(StringBuilder line, List<String> parameters, SqlParameterSource row) {
        for (int i = 0; i < parameters.size(); i++) {
            if (i > 0) {
                line.append('\t');
            }
            appendValue(line, row.getValue(parameters.get(i)), row.getSqlType(parameters.get(i)));
        }
        line.append('\n');
    }

    private static void appendValue(StringBuilder text, Object value, int sqlType) {
        if (value == null) {
            text.append("\\N");
        } else if (sqlType == Types.BOOLEAN) {
            text.append((Boolean) value ? 't' : 'f');
        } else if (sqlType == Types.TIMESTAMP_WITH_TIMEZONE) {
            // rounded to microseconds half up, as the JDBC driver does when it binds the same value
            OffsetDateTime time = ((OffsetDateTime) value).withOffsetSameInstant(ZoneOffset.UTC);
            text.append(MICROS.format(time.plusNanos(500).truncatedTo(ChronoUnit.MICROS)));
        } else if (sqlType == Types.VARCHAR) {
            appendEscaped(text, (String) value);
        } else {
            text.append(value);
        }
    }

    /** COPY text format: backslash, tab, newline and carriage return are escaped. */
    private static void appendEscaped(StringBuilder text, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> text.append("\\\\");
                case '\t' -> text.append("\\t");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                default -> text.append(c);
            }
        }
    }
}
