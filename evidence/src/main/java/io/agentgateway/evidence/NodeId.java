package io.agentgateway.evidence;

import java.util.ArrayList;
import java.util.List;

/**
 * A perfect subtree of the log: the leaves {@code [index * 2^level, (index + 1) * 2^level)}. Level 0 is a leaf. Only
 * complete subtrees have ids: their hash never changes once the log holds their last leaf.
 */
public record NodeId(int level, long index) {
    public NodeId {
        if (level < 0 || level > 63 || index < 0) {
            throw new IllegalArgumentException("no node at level " + level + ", index " + index);
        }
    }

    public long firstLeaf() {
        return index << level;
    }

    /** One past the last leaf. */
    public long endLeaf() {
        return (index + 1) << level;
    }

    /** The nodes that appending leaf {@code leafIndex} completes, lowest level (1) first: as {@link CompactRange#append}. */
    public static List<NodeId> completedBy(long leafIndex) {
        long after = leafIndex + 1;
        int levels = Long.numberOfTrailingZeros(after);
        List<NodeId> nodes = new ArrayList<>(levels);
        for (int level = 1; level <= levels; level++) {
            nodes.add(new NodeId(level, (after >>> level) - 1));
        }
        return nodes;
    }
}
