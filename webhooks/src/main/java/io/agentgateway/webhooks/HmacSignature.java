package io.agentgateway.webhooks;

import io.agentgateway.schemas.secret.PlainSecret;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 of the raw body as received, compared in constant time with the signature the sender
 * sent. The body is never re-serialized first: any byte changed in transit fails the check.
 */
final class HmacSignature {
    private static final String ALGORITHM = "HmacSHA256";

    private HmacSignature() {}

    static boolean verifies(PlainSecret secret, byte[] body, byte[] claimed) {
        return MessageDigest.isEqual(sign(secret, body), claimed);
    }

    static byte[] sign(PlainSecret secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.reveal().getBytes(StandardCharsets.UTF_8), ALGORITHM));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }
}
