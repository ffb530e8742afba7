package io.agentgateway.projector.rebuild;

import io.agentgateway.projector.consume.SkipReason;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** Events a rebuild left out, by the same reasons the live projector counts. Counted by the reader (unreadable...) and the writer thread (refused by the database). */
final class SkipCounts {
    private final Map<SkipReason, Long> counts = new EnumMap<>(SkipReason.class);

    synchronized void add(SkipReason reason) {
        counts.merge(reason, 1L, Long::sum);
    }

    synchronized long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    synchronized Map<SkipReason, Long> snapshot() {
        return Collections.unmodifiableMap(new EnumMap<>(counts));
    }
}
