package io.agentgateway.backtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A plain-text table: left-aligned text columns, right-aligned number columns, two spaces apart. */
final class TextTable {
    private final String[] headers;
    private final boolean[] numeric;
    private final List<String[]> rows = new ArrayList<>();

    /** @param columns  header names; a name ending in {@code #} marks a right-aligned column (the mark is dropped) */
    TextTable(String... columns) {
        headers = new String[columns.length];
        numeric = new boolean[columns.length];
        for (int i = 0; i < columns.length; i++) {
            numeric[i] = columns[i].endsWith("#");
            headers[i] = numeric[i] ? columns[i].substring(0, columns[i].length() - 1) : columns[i];
        }
    }

    TextTable row(Object... cells) {
        String[] row = new String[headers.length];
        for (int i = 0; i < headers.length; i++) {
            Object cell = i < cells.length ? cells[i] : null;
            row[i] = cell instanceof Long || cell instanceof Integer ? String.format(Locale.ROOT, "%,d", cell) : cell == null ? "-" : cell.toString();
        }
        rows.add(row);
        return this;
    }

    void appendTo(StringBuilder out, String indent) {
        int[] widths = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            widths[i] = headers[i].length();
            for (String[] row : rows) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        line(out, indent, headers, widths);
        for (String[] row : rows) {
            line(out, indent, row, widths);
        }
    }

    private void line(StringBuilder out, String indent, String[] cells, int[] widths) {
        StringBuilder line = new StringBuilder(indent);
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                line.append("  ");
            }
            String padding = " ".repeat(widths[i] - cells[i].length());
            line.append(numeric[i] ? padding + cells[i] : cells[i] + (i == cells.length - 1 ? "" : padding));
        }
        out.append(line).append('\n');
    }
}
