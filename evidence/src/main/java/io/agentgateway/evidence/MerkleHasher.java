package io.agentgateway.evidence;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * RFC 9162 (section 2.1.1) hashing with SHA-256: a leaf is {@code SHA-256(0x00 || entry)}, an interior node
 * {@code SHA-256(0x01 || left || right)}, the empty tree {@code SHA-256()}. The 0x00/0x01 prefixes keep a leaf from
 * ever being read as a node (no second preimage across levels).
 *
 * <p>One instance holds one {@link MessageDigest}: not thread-safe, cheap to make; the hot paths (the decision stream's
 * sealing, the verifier) keep one per thread.
 */
public final class MerkleHasher {
    /** The size of every hash, in bytes. */
    public static final int HASH_BYTES = 32;
    private static final byte LEAF_PREFIX = 0x00;
    private static final byte NODE_PREFIX = 0x01;

    private final MessageDigest sha256;

    public MerkleHasher() {
        this.sha256 = newSha256();
    }

    /** {@code SHA-256(0x00 || entry)}. */
    public byte[] leaf(byte[] entry) {
        sha256.update(LEAF_PREFIX);
        return sha256.digest(entry);
    }

    /** {@code SHA-256(0x01 || left || right)}. */
    public byte[] node(byte[] left, byte[] right) {
        sha256.update(NODE_PREFIX);
        sha256.update(left);
        return sha256.digest(right);
    }

    /** Plain SHA-256 of {@code bytes} (payload and result digests). */
    public byte[] sha256(byte[] bytes) {
        return sha256.digest(bytes);
    }

    /** The root of the empty tree: SHA-256 of no bytes. */
    public static byte[] emptyRoot() {
        return newSha256().digest();
    }

    static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
