package io.agentgateway.projector.rebuild;

import io.agentgateway.projector.consume.SkipReason;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A rebuild that switched.
 *
 * @param eventsRead      records read from the events topic
 * @param eventsProjected of them, written into the new tables (the others were skipped, as live)
 * @param skipped         records left out, by reason
 * @param duration        from start to the switch's commit
 * @param switchPause     how long the live projector was held at the switch
 * @param archiveSchema   where the previous tables now are
 * @param tables          the tables that were switched (the Flyway history among them)
 */
public record RebuildResult(long eventsRead, long eventsProjected, Map<SkipReason, Long> skipped, Duration duration,
        Duration switchPause, String archiveSchema, List<String> tables) {

    public double eventsPerSecond() {
        double seconds = duration.toNanos() / 1e9;
        return seconds <= 0 ? eventsRead : eventsRead / seconds;
    }

    public String describe() {
        return String.format(Locale.ROOT,
                "Rebuilt %d tables from %,d events (%,d projected, %,d skipped%s) in %.1f s: %,.0f events/s;"
                        + " the live projector waited %d ms at the switch. The previous tables are in schema %s.",
                tables.size(), eventsRead, eventsProjected, eventsRead - eventsProjected,
                skipped.isEmpty() ? "" : " " + skipped, duration.toMillis() / 1000.0, eventsPerSecond(),
                switchPause.toMillis(), archiveSchema);
    }
}
