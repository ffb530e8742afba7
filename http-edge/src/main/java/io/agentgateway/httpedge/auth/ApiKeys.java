package io.agentgateway.httpedge.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;

/**
 * API keys: {@code agk_<22 chars: base64url of the workspace uuid's 16 bytes>_<43 chars: base64url
 * of 32 random bytes>}, no padding. The workspace is readable from the key so the ingress can key
 * the command by workspace without a lookup; the 256 random bits are the secret. Only the SHA-256
 * hex of the whole key string is ever stored or sent.
 */
public final class ApiKeys {
    public static final String PREFIX = "agk_";
    private static final int WORKSPACE_CHARS = 22;
    private static final int SECRET_CHARS = 43;
    private static final int SECRET_BYTES = 32;
    private static final int SEPARATOR_INDEX = PREFIX.length() + WORKSPACE_CHARS;
    private static final int LENGTH = SEPARATOR_INDEX + 1 + SECRET_CHARS;

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final SecureRandom RANDOM = new SecureRandom();

    private ApiKeys() {}

    public static String generate(UUID workspaceId) {
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        return PREFIX + ENCODER.encodeToString(uuidBytes(workspaceId)) + "_" + ENCODER.encodeToString(secret);
    }

    /** The workspace of a well-formed key; empty for anything that is not exactly a key's shape. */
    public static Optional<UUID> parseWorkspace(String key) {
        if (key == null || key.length() != LENGTH || !key.startsWith(PREFIX) || key.charAt(SEPARATOR_INDEX) != '_') {
            return Optional.empty();
        }
        String workspacePart = key.substring(PREFIX.length(), SEPARATOR_INDEX);
        String secretPart = key.substring(SEPARATOR_INDEX + 1);
        byte[] workspace = canonicalDecode(workspacePart);
        if (workspace == null || workspace.length != 16 || canonicalDecode(secretPart) == null) {
            return Optional.empty();
        }
        ByteBuffer buffer = ByteBuffer.wrap(workspace);
        return Optional.of(new UUID(buffer.getLong(), buffer.getLong()));
    }

    /** Lower-case hex SHA-256 of the whole key string. */
    public static String hash(String key) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha256.digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static byte[] uuidBytes(UUID id) {
        return ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()).array();
    }

    /** Decodes base64url, or null when the text is not the one canonical encoding of its bytes. */
    private static byte[] canonicalDecode(String text) {
        try {
            byte[] bytes = DECODER.decode(text);
            return ENCODER.encodeToString(bytes).equals(text) ? bytes : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
