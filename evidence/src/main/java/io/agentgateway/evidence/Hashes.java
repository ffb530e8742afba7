package io.agentgateway.evidence;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/** The text forms of hashes: base64 (RFC 4648 section 4, as in C2SP checkpoints and proofs) and lower-case hex (digests). */
public final class Hashes {
    private static final HexFormat HEX = HexFormat.of();

    private Hashes() {}

    public static String base64(byte[] hash) {
        return Base64.getEncoder().encodeToString(hash);
    }

    /** The 32-byte hash of a base64 text; {@link IllegalArgumentException} for anything else. */
    public static byte[] fromBase64(String text) {
        if (text == null) {
            throw new IllegalArgumentException("hash missing");
        }
        byte[] hash;
        try {
            hash = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("hash is not base64");
        }
        if (hash.length != MerkleHasher.HASH_BYTES) {
            throw new IllegalArgumentException("hash is " + hash.length + " bytes, not " + MerkleHasher.HASH_BYTES);
        }
        return hash;
    }

    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    /** The lower-case hex SHA-256 of a text's UTF-8 bytes (the payload excerpt's digest). */
    public static String sha256Hex(String text) {
        return hex(SHA256.get().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** The lower-case hex SHA-256 of bytes. */
    public static String sha256Hex(byte[] bytes) {
        return hex(SHA256.get().digest(bytes));
    }

    /** A digest per thread: getting one from the provider costs more than hashing a payload excerpt. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(MerkleHasher::newSha256);

    public static boolean equal(byte[] a, byte[] b) {
        return Arrays.equals(a, b);
    }
}
