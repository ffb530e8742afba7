package io.agentgateway.evidence;

import java.util.Arrays;

/**
 * A C2SP {@code tlog-checkpoint} body: origin, tree size and root hash, one per line, no extension lines.
 *
 * <pre>
 *   agent-gateway.example/audit/8d1c…
 *   1024
 *   CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=
 * </pre>
 */
public record Checkpoint(String origin, long size, byte[] rootHash) {

    public Checkpoint {
        if (origin == null || origin.isEmpty() || origin.contains("\n")) {
            throw new IllegalArgumentException("a checkpoint's origin is one non-empty line");
        }
        if (size < 0) {
            throw new IllegalArgumentException("a checkpoint's size is not negative");
        }
        if (rootHash == null || rootHash.length != MerkleHasher.HASH_BYTES) {
            throw new IllegalArgumentException("a checkpoint's root hash is 32 bytes");
        }
        rootHash = rootHash.clone();
    }

    @Override
    public byte[] rootHash() {
        return rootHash.clone();
    }

    /** The note text: {@code origin \n size \n base64(root) \n}. */
    public String body() {
        return origin + "\n" + size + "\n" + Hashes.base64(rootHash) + "\n";
    }

    /** The checkpoint of a note's text; {@link IllegalArgumentException} when the text is not one. */
    public static Checkpoint parse(String text) {
        String[] lines = text.split("\n", -1);
        // three lines and the empty string after the last newline; extension lines are not issued here
        if (lines.length < 4 || !lines[lines.length - 1].isEmpty()) {
            throw new IllegalArgumentException("a checkpoint is at least three lines, each ending in a newline");
        }
        long size;
        try {
            size = Long.parseLong(lines[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a checkpoint's second line is its tree size");
        }
        if (!Long.toString(size).equals(lines[1])) {
            throw new IllegalArgumentException("a checkpoint's size is decimal without leading zeroes");
        }
        return new Checkpoint(lines[0], size, Hashes.fromBase64(lines[2]));
    }

    public boolean sameRoot(Checkpoint other) {
        return Arrays.equals(rootHash, other.rootHash);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Checkpoint c && c.origin.equals(origin) && c.size == size && Arrays.equals(c.rootHash, rootHash);
    }

    @Override
    public int hashCode() {
        return origin.hashCode() * 31 + Long.hashCode(size);
    }

    @Override
    public String toString() {
        return "Checkpoint[" + origin + ", " + size + ", " + Hashes.base64(rootHash) + "]";
    }
}
