package io.agentgateway.evidence;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The state a log's single writer keeps: the tree size and the roots of the perfect subtrees that make up
 * {@code [0, size)}, one per set bit of the size, largest first (the "compact range" or "frontier" of
 * transparency-dev/merkle). That is at most 64 hashes, about 20 for a million entries, whatever the log holds:
 * enough to append a leaf and to compute the root, never the leaves themselves.
 *
 * <p>Appending leaf {@code i} merges the perfect subtrees it completes: the nodes at levels 1, 2, ... whose last leaf
 * is {@code i}, i.e. one per trailing one-bit of {@code i}. {@link #append} returns them, so that a reader storing
 * every complete node (the read model) can answer any proof without ever recomputing from leaves.
 *
 * <p>Mutable, not thread-safe. The stored form ({@link #encode}) is {@code size (8 bytes, big-endian)} followed by
 * the hashes.
 */
public final class CompactRange {
    private long size;
    private final List<byte[]> hashes;

    private CompactRange(long size, List<byte[]> hashes) {
        this.size = size;
        this.hashes = hashes;
    }

    public static CompactRange empty() {
        return new CompactRange(0, new ArrayList<>());
    }

    public long size() {
        return size;
    }

    /** The perfect subtree roots, largest (leftmost) first; a copy of the list, not of the hashes. */
    public List<byte[]> hashes() {
        return List.copyOf(hashes);
    }

    /**
     * Appends one leaf hash and returns the nodes it completed, lowest level first: level {@code l} (1-based), index
     * {@code (size after the append >> l) - 1}.
     */
    public List<byte[]> append(byte[] leafHash, MerkleHasher hasher) {
        if (leafHash.length != MerkleHasher.HASH_BYTES) {
            throw new IllegalArgumentException("a leaf hash is " + MerkleHasher.HASH_BYTES + " bytes");
        }
        List<byte[]> completed = List.of();
        byte[] merged = leafHash;
        long bits = size;
        while ((bits & 1) == 1) {
            merged = hasher.node(hashes.remove(hashes.size() - 1), merged);
            if (completed.isEmpty()) {
                completed = new ArrayList<>(4);
            }
            completed.add(merged);
            bits >>>= 1;
        }
        hashes.add(merged);
        size++;
        return completed;
    }

    /** The RFC 9162 root of {@code [0, size)}: the subtree roots folded from the right. */
    public byte[] root(MerkleHasher hasher) {
        if (hashes.isEmpty()) {
            return MerkleHasher.emptyRoot();
        }
        byte[] root = hashes.get(hashes.size() - 1);
        for (int i = hashes.size() - 2; i >= 0; i--) {
            root = hasher.node(hashes.get(i), root);
        }
        return root;
    }

    public CompactRange copy() {
        return new CompactRange(size, new ArrayList<>(hashes));
    }

    public byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(8 + hashes.size() * MerkleHasher.HASH_BYTES);
        out.putLong(size);
        hashes.forEach(out::put);
        return out.array();
    }

    /** The range {@link #encode} wrote; {@link IllegalArgumentException} when the bytes are not one. */
    public static CompactRange decode(byte[] bytes) {
        if (bytes.length < 8 || (bytes.length - 8) % MerkleHasher.HASH_BYTES != 0) {
            throw new IllegalArgumentException("not a compact range: " + bytes.length + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        long size = in.getLong();
        int count = (bytes.length - 8) / MerkleHasher.HASH_BYTES;
        if (size < 0 || Long.bitCount(size) != count) {
            throw new IllegalArgumentException("a compact range of size " + size + " holds " + Long.bitCount(Math.max(size, 0))
                    + " hashes, not " + count);
        }
        List<byte[]> hashes = new ArrayList<>(count + 1);
        for (int i = 0; i < count; i++) {
            byte[] hash = new byte[MerkleHasher.HASH_BYTES];
            in.get(hash);
            hashes.add(hash);
        }
        return new CompactRange(size, hashes);
    }

    /** The range over {@code [0, hashes' size)} given its perfect subtree roots, largest first (a read model's nodes). */
    public static CompactRange of(long size, List<byte[]> hashes) {
        if (size < 0 || Long.bitCount(size) != hashes.size()) {
            throw new IllegalArgumentException("a compact range of size " + size + " holds " + Long.bitCount(Math.max(size, 0)) + " hashes");
        }
        return new CompactRange(size, new ArrayList<>(hashes));
    }

    /**
     * The perfect subtrees that make up {@code [0, size)}, largest first: the nodes whose hashes {@link #of} takes.
     */
    public static List<NodeId> nodesOf(long size) {
        List<NodeId> nodes = new ArrayList<>(Long.bitCount(size));
        long start = 0;
        for (int level = 63; level >= 0; level--) {
            long width = 1L << level;
            if ((size & width) != 0) {
                nodes.add(new NodeId(level, start >>> level));
                start += width;
            }
        }
        return nodes;
    }
}
