package io.agentgateway.console.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/** The console's random secrets (session ids, CSRF tokens, link tokens, PKCE) and the hashes stored of them. */
public final class Secrets {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();

    private Secrets() {}

    /** 256 random bits, base64url (43 characters). */
    public static String random() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return URL.encodeToString(bytes);
    }

    /** Lower-case hex SHA-256 of the text: what is stored of a browser's secret. */
    public static String hash(String value) {
        return HexFormat.of().formatHex(sha256(value));
    }

    /** PKCE S256: base64url of SHA-256 of the verifier (RFC 7636 4.2). */
    public static String codeChallenge(String verifier) {
        return URL.encodeToString(sha256(verifier));
    }

    /** Equal in time independent of where they differ. */
    public static boolean same(String a, String b) {
        return a != null && b != null && MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
