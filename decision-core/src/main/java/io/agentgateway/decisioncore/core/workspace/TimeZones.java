package io.agentgateway.decisioncore.core.workspace;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Set;

/** Which time zone ids a workspace may set: an IANA region id this JVM knows ({@code Europe/Berlin}), or UTC. */
final class TimeZones {
    private static final Set<String> REGIONS = ZoneId.getAvailableZoneIds();

    private TimeZones() {}

    static boolean isRegionOrUtc(String id) {
        if ("UTC".equals(id)) {
            return true;
        }
        if (!REGIONS.contains(id)) {
            return false;
        }
        try {
            ZoneId.of(id);
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }
}
