package io.agentgateway.evidence;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * How values are written as entry texts, the same whether read from an event or from a PostgreSQL row: instants in
 * UTC with exactly six fraction digits ({@code 2026-03-01T12:00:00.123456Z}: rounded half up to PostgreSQL's
 * microseconds, as its driver binds them), booleans {@code true}/{@code false}, integers in decimal, ids (UUIDs) in
 * lower case, enums as their wire names, texts with U+0000 (which PostgreSQL's text cannot hold) as U+FFFD.
 */
public final class EntryValues {
    private static final DateTimeFormatter INSTANT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private EntryValues() {}

    public static String instant(Instant instant) {
        return instant == null ? null : INSTANT.format(instant.plusNanos(500).truncatedTo(ChronoUnit.MICROS));
    }

    /** A text as PostgreSQL stores it: U+0000 replaced by U+FFFD (the projector does the same). */
    public static String text(String text) {
        return text == null || text.indexOf('\u0000') < 0 ? text : text.replace('\u0000', '\uFFFD');
    }

    public static String bool(boolean value) {
        return value ? "true" : "false";
    }

    public static String number(long value) {
        return Long.toString(value);
    }

    public static String number(Long value) {
        return value == null ? null : Long.toString(value);
    }

    /** An id as PostgreSQL's uuid type gives it back: lower case. Not a UUID: the text itself. */
    public static String id(String id) {
        if (id == null) {
            return null;
        }
        try {
            return UUID.fromString(id).toString();
        } catch (IllegalArgumentException notAUuid) {
            return id;
        }
    }
}
