package io.agentgateway.console.web;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How the pages write times: UTC to the second, the form a reviewer compares at a glance. */
public final class Formats {
    public static final Formats INSTANCE = new Formats();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    private Formats() {}

    /** {@code 2026-11-28 12:18:05 UTC}; empty for none. */
    public String time(Instant instant) {
        return instant == null ? "" : TIME.format(instant) + " UTC";
    }

    /** {@code 2026-11-28 12:18:05} (a column that says UTC in its head). */
    public String bare(Instant instant) {
        return instant == null ? "" : TIME.format(instant);
    }
}
