package io.agentgateway.adminapi.export;

import io.agentgateway.schemas.GatewayJson;
import java.io.OutputStream;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import tools.jackson.core.JsonEncoding;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.ObjectWriter;

/**
 * One JSON object per line, written token by token with Jackson's streaming generator: no row object
 * and no tree is built. Nulls are written (as the audit-log API does), so every line has every field.
 */
final class JsonLinesRowWriter implements AuditRowWriter {
    /** No separator between root values: each line ends with its own newline instead. */
    private static final ObjectWriter LINES = GatewayJson.MAPPER.writer()
            .withRootValueSeparator((String) null)
            .without(StreamWriteFeature.AUTO_CLOSE_TARGET);
    private static final SerializableString[] NAMES = new SerializableString[AuditExportColumn.ALL.length];

    static {
        for (int i = 0; i < NAMES.length; i++) {
            NAMES[i] = new SerializedString(AuditExportColumn.ALL[i].field());
        }
    }

    private final JsonGenerator json;

    JsonLinesRowWriter(OutputStream out) {
        this.json = LINES.createGenerator(out, JsonEncoding.UTF8);
    }

    @Override
    public void write(ResultSet row) throws SQLException {
        json.writeStartObject();
        for (int i = 0; i < NAMES.length; i++) {
            json.writeName(NAMES[i]);
            int column = i + 1;
            switch (AuditExportColumn.ALL[i].kind()) {
                case TEXT -> {
                    String text = row.getString(column);
                    if (text == null) {
                        json.writeNull();
                    } else {
                        json.writeString(text);
                    }
                }
                case TIMESTAMP -> {
                    OffsetDateTime at = row.getObject(column, OffsetDateTime.class);
                    if (at == null) {
                        json.writeNull();
                    } else {
                        // Instant.toString is ISO-8601 in UTC, as the API writes instants
                        json.writeString(at.toInstant().toString());
                    }
                }
                case BOOLEAN -> {
                    boolean value = row.getBoolean(column);
                    if (row.wasNull()) {
                        json.writeNull();
                    } else {
                        json.writeBoolean(value);
                    }
                }
                case NUMBER -> {
                    long value = row.getLong(column);
                    if (row.wasNull()) {
                        json.writeNull();
                    } else {
                        json.writeNumber(value);
                    }
                }
                case JSON -> {
                    String value = row.getString(column);
                    if (value == null) {
                        json.writeNull();
                    } else {
                        // written by the projector from the event, so it is JSON already; copied as it is
                        json.writeRawValue(value);
                    }
                }
            }
        }
        json.writeEndObject();
        json.writeRaw('\n');
    }

    @Override
    public void finish() {
        json.close();
    }
}
