package io.agentgateway.projector.readmodel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The positions the live writer committed per series of coalescing writes ({@link Write.Coalescing}), so that a write
 * a committed one already includes is not sent again. Bounded (least recently written forgotten: its next write runs,
 * and changes nothing). Only ever too little is remembered, never too much: a position is remembered after its
 * transaction committed, and the table only moves forward, so a write left out changes nothing there.
 */
final class CommittedPositions {
    private final Map<String, Long> positions;

    CommittedPositions(int capacity) {
        this.positions = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                return size() > capacity;
            }
        };
    }

    /** {@code writes} without the coalescing ones at a position already committed for their series. */
    synchronized List<Write> notYetCommitted(List<Write> writes) {
        List<Write> due = null;
        for (int i = 0; i < writes.size(); i++) {
            Write write = writes.get(i);
            boolean skip = write.coalescing() != null && committedAtLeast(write.coalescing());
            if (skip && due == null) {
                due = new ArrayList<>(writes.subList(0, i));
            } else if (!skip && due != null) {
                due.add(write);
            }
        }
        return due == null ? writes : due;
    }

    synchronized void remember(List<Write> committedWrites) {
        for (Write write : committedWrites) {
            if (write.coalescing() != null) {
                positions.merge(write.coalescing().key(), write.coalescing().position(), Math::max);
            }
        }
    }

    private boolean committedAtLeast(Write.Coalescing coalescing) {
        Long position = positions.get(coalescing.key());
        return position != null && position >= coalescing.position();
    }
}
