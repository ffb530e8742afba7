package io.agentgateway.adminapi.export;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The file formats of an audit export, with their wire name, media type and file extension. */
public enum AuditExportFormat {
    /** One JSON object per line (newline-delimited JSON), UTF-8. */
    JSONL("application/x-ndjson"),
    /** RFC 4180: a header row, CRLF line ends, fields quoted when they hold a comma, quote or line break; UTF-8. */
    CSV("text/csv;charset=utf-8;header=present");

    public static final String MESSAGE = "format must be one of: "
            + Arrays.stream(values()).map(AuditExportFormat::wire).collect(Collectors.joining(", "));

    private final String mediaType;

    AuditExportFormat(String mediaType) {
        this.mediaType = mediaType;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String mediaType() {
        return mediaType;
    }

    public String fileExtension() {
        return "." + wire();
    }

    public static Optional<AuditExportFormat> parse(String wire) {
        return Arrays.stream(values()).filter(f -> f.wire().equals(wire)).findFirst();
    }

    AuditRowWriter writerTo(OutputStream out) throws IOException {
        return switch (this) {
            case JSONL -> new JsonLinesRowWriter(out);
            case CSV -> new CsvRowWriter(out);
        };
    }
}
