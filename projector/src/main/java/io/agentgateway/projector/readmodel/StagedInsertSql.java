package io.agentgateway.projector.readmodel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bulk form of an append-only statement {@code insert into t (columns) values (expressions of :params)
 * on conflict ... do nothing}: the same statement with its {@code values (...)} turned into
 * {@code select (the same expressions, each :param read from a staging column) from <staging table>}.
 * A bulk load COPYs its rows into the staging table and runs this once, so each row gets exactly the
 * expressions (casts), columns and conflict handling of the live statement, at a fraction of the cost of
 * binding every parameter of every row.
 *
 * @param stagingTable a temporary table, one per statement
 * @param parameters   the named parameters, in order of first appearance: the staging table's columns
 * @param insertFromStaging the statement reading from the staging table
 */
record StagedInsertSql(String stagingTable, List<String> parameters, String insertFromStaging) {
    /** A named parameter; {@code ::type} casts are not parameters. */
    private static final Pattern PARAMETER = Pattern.compile("(?<!:):([a-z_][a-z0-9_]*)");
    private static final AtomicInteger STAGING_TABLES = new AtomicInteger();

    /** @throws IllegalArgumentException if the statement does not have the shape above */
    static StagedInsertSql of(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        int values = lower.indexOf("values (");
        if (!lower.stripLeading().startsWith("insert into ") || values < 0) {
            throw new IllegalArgumentException("an append-only statement must be insert ... values (...): " + sql);
        }
        int open = values + "values ".length();
        int close = matchingParenthesis(sql, open);
        String tuple = sql.substring(open + 1, close);
        String stagingTable = "pg_temp.rebuild_stage_" + STAGING_TABLES.incrementAndGet();
        List<String> parameters = new ArrayList<>();
        Matcher parameter = PARAMETER.matcher(tuple);
        StringBuilder select = new StringBuilder();
        while (parameter.find()) {
            if (!parameters.contains(parameter.group(1))) {
                parameters.add(parameter.group(1));
            }
            parameter.appendReplacement(select, "s." + parameter.group(1));
        }
        parameter.appendTail(select);
        if (PARAMETER.matcher(sql.substring(close)).find() || PARAMETER.matcher(sql.substring(0, open)).find()) {
            throw new IllegalArgumentException("an append-only statement may have parameters only in its values: " + sql);
        }
        String insert = sql.substring(0, values) + "select " + select + " from " + stagingTable + " s" + sql.substring(close + 1);
        return new StagedInsertSql(stagingTable, List.copyOf(parameters), insert);
    }

    private static int matchingParenthesis(String sql, int open) {
        int depth = 0;
        for (int i = open; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced parentheses: " + sql);
    }
}
