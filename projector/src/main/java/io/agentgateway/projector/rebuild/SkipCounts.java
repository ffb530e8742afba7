package io.agentgateway.projector.rebuild;

import io.agentgateway.projector.consume.SkipReason;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** Events a rebuild left out, by the same reasons the live projector counts. Used by the rebuild's one thread. */
final class SkipCounts {
    private final Map<SkipReason, Long> counts = new EnumMap<>(SkipReason.class);

    void add(SkipReason reason) {
        counts.merge(reason, 1L, Long::sum);
    }

    long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    Map<SkipReason, Long> snapshot() {
        return Collections.unmodifiableMap(new EnumMap<>(counts));
    }
}
