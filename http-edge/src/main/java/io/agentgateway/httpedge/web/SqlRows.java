package io.agentgateway.httpedge.web;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Column reads shared by the read-model repositories. */
public final class SqlRows {
    private SqlRows() {}

    public static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** A jsonb column selected as {@code ::text}. */
    public static JsonNode json(ResultSet rs, String column) throws SQLException {
        String text = rs.getString(column);
        return text == null ? null : IngressJson.REQUESTS.readTree(text);
    }

    public static List<String> textArray(ResultSet rs, String column) throws SQLException {
        Array array = rs.getArray(column);
        return array == null ? List.of() : List.of((String[]) array.getArray());
    }
}
