package io.agentgateway.evidence;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * RFC 9162 section 2.1 proofs: the inclusion proof of a leaf in a tree of some size (2.1.3) and the consistency
 * proof between two sizes (2.1.4), made from stored node hashes and verified from nothing but the proof.
 *
 * <p>Making a proof is in two steps so that a store answers it with one lookup: {@link #inclusionNodes} /
 * {@link #consistencyNodes} name every complete subtree the proof needs; {@link #inclusionProof} /
 * {@link #consistencyProof} then combine the hashes found. Every proof element is the hash of a range of leaves the
 * RFC's recursion names ({@link LeafRange}); a range at the tree's right edge that is not a perfect subtree is hashed
 * from the perfect subtrees it splits into, so only complete nodes are ever stored.
 */
public final class MerkleProofs {
    private MerkleProofs() {}

    /** Leaves {@code [start, end)}, as the RFC's recursion splits a tree: at the largest power of two below its size. */
    public record LeafRange(long start, long end) {
        public LeafRange {
            if (start < 0 || end <= start) {
                throw new IllegalArgumentException("empty or negative range [" + start + ", " + end + ")");
            }
        }

        /** The perfect subtrees whose hashes make this range's hash, left to right. */
        public List<NodeId> nodes() {
            List<NodeId> nodes = new ArrayList<>(2);
            long from = start;
            while (from < end) {
                long size = end - from;
                long width = Long.bitCount(size) == 1 ? size : Long.highestOneBit(size);
                int level = Long.numberOfTrailingZeros(width);
                nodes.add(new NodeId(level, from >>> level));
                from += width;
            }
            return nodes;
        }

        /** The range's RFC 9162 hash from its perfect subtrees' hashes. */
        public byte[] hash(Map<NodeId, byte[]> hashes, MerkleHasher hasher) {
            List<NodeId> nodes = nodes();
            byte[] hash = require(hashes, nodes.get(nodes.size() - 1));
            for (int i = nodes.size() - 2; i >= 0; i--) {
                hash = hasher.node(require(hashes, nodes.get(i)), hash);
            }
            return hash;
        }
    }

    /** Where a proof's node hashes come from (a read model, an in-memory tree). */
    @FunctionalInterface
    public interface NodeSource {
        /** The hashes of {@code nodes}; a node it does not hold is left out (the proof then fails to build). */
        Map<NodeId, byte[]> hashes(Collection<NodeId> nodes);
    }

    /** A node hash the source did not have: the store is missing part of the tree. */
    public static final class MissingNodeException extends IllegalStateException {
        private final NodeId node;

        MissingNodeException(NodeId node) {
            super("the tree's node at level " + node.level() + ", index " + node.index() + " is not stored");
            this.node = node;
        }

        public NodeId node() {
            return node;
        }
    }

    // ---- making proofs ----

    /** The ranges whose hashes are the inclusion proof of leaf {@code index} in a tree of {@code size}, bottom up. */
    public static List<LeafRange> inclusionPath(long index, long size) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("leaf " + index + " is not in a tree of size " + size);
        }
        List<LeafRange> path = new ArrayList<>(64);
        inclusionPath(index, 0, size, path);
        return path;
    }

    private static void inclusionPath(long m, long start, long end, List<LeafRange> path) {
        long n = end - start;
        if (n == 1) {
            return;
        }
        long k = largestPowerOfTwoBelow(n);
        if (m < k) {
            inclusionPath(m, start, start + k, path);
            path.add(new LeafRange(start + k, end));
        } else {
            inclusionPath(m - k, start + k, end, path);
            path.add(new LeafRange(start, start + k));
        }
    }

    /**
     * The ranges whose hashes are the consistency proof from size {@code first} to {@code second} (RFC 9162
     * 2.1.4.1); empty when {@code first} is 0 or equals {@code second} (nothing to prove).
     */
    public static List<LeafRange> consistencyPath(long first, long second) {
        if (first < 0 || second < first) {
            throw new IllegalArgumentException("no consistency proof from size " + first + " to " + second);
        }
        List<LeafRange> path = new ArrayList<>(64);
        if (first > 0 && first < second) {
            subproof(first, 0, second, true, path);
        }
        return path;
    }

    private static void subproof(long m, long start, long end, boolean complete, List<LeafRange> path) {
        long n = end - start;
        if (m == n) {
            if (!complete) {
                path.add(new LeafRange(start, end));
            }
            return;
        }
        long k = largestPowerOfTwoBelow(n);
        if (m <= k) {
            subproof(m, start, start + k, complete, path);
            path.add(new LeafRange(start + k, end));
        } else {
            subproof(m - k, start + k, end, false, path);
            path.add(new LeafRange(start, start + k));
        }
    }

    /** Every complete node the inclusion proof of {@code index} in a tree of {@code size} needs. */
    public static Set<NodeId> inclusionNodes(long index, long size) {
        return nodesOf(inclusionPath(index, size));
    }

    /** Every complete node the consistency proof from {@code first} to {@code second} needs. */
    public static Set<NodeId> consistencyNodes(long first, long second) {
        return nodesOf(consistencyPath(first, second));
    }

    public static List<byte[]> inclusionProof(long index, long size, NodeSource source, MerkleHasher hasher) {
        return hashesOf(inclusionPath(index, size), source, hasher);
    }

    public static List<byte[]> consistencyProof(long first, long second, NodeSource source, MerkleHasher hasher) {
        return hashesOf(consistencyPath(first, second), source, hasher);
    }

    /** The root of the tree of {@code size} from the source's perfect subtrees (at most 64 nodes). */
    public static byte[] root(long size, NodeSource source, MerkleHasher hasher) {
        if (size == 0) {
            return MerkleHasher.emptyRoot();
        }
        LeafRange all = new LeafRange(0, size);
        return all.hash(source.hashes(all.nodes()), hasher);
    }

    private static Set<NodeId> nodesOf(List<LeafRange> ranges) {
        Set<NodeId> nodes = new LinkedHashSet<>();
        ranges.forEach(range -> nodes.addAll(range.nodes()));
        return nodes;
    }

    private static List<byte[]> hashesOf(List<LeafRange> ranges, NodeSource source, MerkleHasher hasher) {
        Map<NodeId, byte[]> hashes = source.hashes(nodesOf(ranges));
        List<byte[]> proof = new ArrayList<>(ranges.size());
        ranges.forEach(range -> proof.add(range.hash(hashes, hasher)));
        return proof;
    }

    private static byte[] require(Map<NodeId, byte[]> hashes, NodeId node) {
        byte[] hash = hashes.get(node);
        if (hash == null) {
            throw new MissingNodeException(node);
        }
        return hash;
    }

    static long largestPowerOfTwoBelow(long n) {
        return Long.highestOneBit(n - 1);
    }

    // ---- verifying proofs ----

    /**
     * RFC 9162 2.1.3.2: whether {@code proof} proves that {@code leafHash} is leaf {@code index} of the tree of
     * {@code size} whose root is {@code root}.
     */
    public static boolean verifyInclusion(long index, long size, byte[] leafHash, List<byte[]> proof, byte[] root,
                                          MerkleHasher hasher) {
        byte[] computed = rootFromInclusion(index, size, leafHash, proof, hasher);
        return computed != null && Arrays.equals(computed, root);
    }

    /** The root the inclusion proof leads to, or null when the proof cannot be one for this index and size. */
    public static byte[] rootFromInclusion(long index, long size, byte[] leafHash, List<byte[]> proof, MerkleHasher hasher) {
        if (index < 0 || index >= size || !isHash(leafHash)) {
            return null;
        }
        long fn = index;
        long sn = size - 1;
        byte[] r = leafHash;
        for (byte[] p : proof) {
            if (sn == 0 || !isHash(p)) {
                return null;
            }
            if ((fn & 1) == 1 || fn == sn) {
                r = hasher.node(p, r);
                if ((fn & 1) == 0) {
                    while ((fn & 1) == 0 && fn != 0) {
                        fn >>>= 1;
                        sn >>>= 1;
                    }
                }
            } else {
                r = hasher.node(r, p);
            }
            fn >>>= 1;
            sn >>>= 1;
        }
        return sn == 0 ? r : null;
    }

    /**
     * RFC 9162 2.1.4.2: whether {@code proof} proves that the tree of {@code first} leaves with root {@code firstRoot}
     * is a prefix of the tree of {@code second} leaves with root {@code secondRoot}. Equal sizes need equal roots and an
     * empty proof. A first size of 0 is refused, as transparency-dev/merkle does (the empty tree is a prefix of every
     * tree: callers decide that case without a proof).
     */
    public static boolean verifyConsistency(long first, long second, List<byte[]> proof, byte[] firstRoot,
                                            byte[] secondRoot, MerkleHasher hasher) {
        if (first <= 0 || second < first) {
            return false;
        }
        if (first == second) {
            return proof.isEmpty() && firstRoot != null && Arrays.equals(firstRoot, secondRoot);
        }
        if (proof.isEmpty() || !isHash(firstRoot) || !isHash(secondRoot)) {
            return false;
        }
        List<byte[]> path = proof;
        if (Long.bitCount(first) == 1) {
            path = new ArrayList<>(proof.size() + 1);
            path.add(firstRoot);
            path.addAll(proof);
        }
        for (byte[] p : path) {
            if (!isHash(p)) {
                return false;
            }
        }
        long fn = first - 1;
        long sn = second - 1;
        while ((fn & 1) == 1) {
            fn >>>= 1;
            sn >>>= 1;
        }
        byte[] fr = path.get(0);
        byte[] sr = path.get(0);
        for (int i = 1; i < path.size(); i++) {
            byte[] c = path.get(i);
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                fr = hasher.node(c, fr);
                sr = hasher.node(c, sr);
                if ((fn & 1) == 0) {
                    while ((fn & 1) == 0 && fn != 0) {
                        fn >>>= 1;
                        sn >>>= 1;
                    }
                }
            } else {
                sr = hasher.node(sr, c);
            }
            fn >>>= 1;
            sn >>>= 1;
        }
        return sn == 0 && Arrays.equals(fr, firstRoot) && Arrays.equals(sr, secondRoot);
    }

    private static boolean isHash(byte[] hash) {
        return hash != null && hash.length == MerkleHasher.HASH_BYTES;
    }
}
