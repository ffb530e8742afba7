package io.agentgateway.adminapi.export;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * RFC 4180 CSV through Commons CSV: a header row of the field names, CRLF line ends, and any field
 * holding a comma, a double quote or a line break (a payload excerpt is JSON text) quoted with its
 * quotes doubled. A null is an empty field. A text cell that a spreadsheet would run as a formula
 * (one starting with {@code =}, {@code +}, {@code -}, {@code @}, a tab or a carriage return: agent ids,
 * actions, reasons and payloads come from callers) gets a leading {@code '} (OWASP, CSV injection), so
 * opening the file runs nothing; every other value is written as stored. The JSON Lines export is the
 * exact record and is never rewritten.
 */
final class CsvRowWriter implements AuditRowWriter {
    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setHeader(AuditExportColumn.fields()).get();

    private final CSVPrinter csv;

    CsvRowWriter(OutputStream out) throws IOException {
        // the printer writes the header row at once
        this.csv = new CSVPrinter(new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 8192), FORMAT);
    }

    @Override
    public void write(ResultSet row) throws SQLException, IOException {
        for (int i = 0; i < AuditExportColumn.ALL.length; i++) {
            int column = i + 1;
            switch (AuditExportColumn.ALL[i].kind()) {
                case TEXT, JSON -> csv.print(spreadsheetSafe(row.getString(column)));
                case TIMESTAMP -> {
                    OffsetDateTime at = row.getObject(column, OffsetDateTime.class);
                    csv.print(at == null ? null : at.toInstant().toString());
                }
                case BOOLEAN -> {
                    boolean value = row.getBoolean(column);
                    csv.print(row.wasNull() ? null : Boolean.toString(value));
                }
                case NUMBER -> {
                    long value = row.getLong(column);
                    csv.print(row.wasNull() ? null : Long.toString(value));
                }
            }
        }
        csv.println();
    }

    /** The value with a leading {@code '} when a spreadsheet would read it as a formula; else as it is. */
    static String spreadsheetSafe(String value) {
        if (value == null || value.isEmpty()) {
            return value;
        }
        return switch (value.charAt(0)) {
            case '=', '+', '-', '@', '\t', '\r' -> "'" + value;
            default -> value;
        };
    }

    @Override
    public void finish() throws IOException {
        csv.flush();
    }
}
