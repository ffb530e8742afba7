package io.agentgateway.schemas.secret;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals secrets (chat webhook URLs, tool tokens, webhook secrets) with AES-256-GCM before they enter
 * any event or table. The sealed form is {@code v1.<base64url(iv || ciphertext+tag)>}; the version
 * prefix leaves room for key rotation. {@link #toString()} never shows the key.
 */
public final class SecretBox {
    private static final String PREFIX = "v1.";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    private SecretBox(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("the secret key must be 32 bytes (base64 of 32 random bytes)");
        }
        this.key = new SecretKeySpec(key, "AES");
    }

    /** @param base64Key base64 of 32 random bytes, e.g. from {@code openssl rand -base64 32} */
    public static SecretBox fromBase64Key(String base64Key) {
        if (base64Key == null || base64Key.isBlank()) {
            throw new IllegalArgumentException("no secret key configured");
        }
        return new SecretBox(Base64.getDecoder().decode(base64Key.trim()));
    }

    public String seal(String plaintext) {
        try {
            byte[] iv = new byte[IV_BYTES];
            random.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            ByteBuffer out = ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed);
            return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(out.array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    /** {@link #seal(String)} as the type that keeps the sealed value out of {@code toString}. */
    public SealedSecret sealSecret(String plaintext) {
        return SealedSecret.of(seal(plaintext));
    }

    /** @throws IllegalArgumentException when the value was not sealed with this key or was altered */
    public PlainSecret openSecret(SealedSecret sealed) {
        if (sealed == null) {
            throw new IllegalArgumentException("not a sealed secret");
        }
        return PlainSecret.of(open(sealed.value()));
    }

    /** @throws IllegalArgumentException when the value was not sealed with this key or was altered */
    public String open(String sealed) {
        if (sealed == null || !sealed.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a sealed secret");
        }
        try {
            byte[] raw = Base64.getUrlDecoder().decode(sealed.substring(PREFIX.length()));
            if (raw.length <= IV_BYTES) {
                throw new IllegalArgumentException("sealed secret too short");
            }
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, raw, 0, IV_BYTES));
            return new String(cipher.doFinal(raw, IV_BYTES, raw.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("sealed secret cannot be opened with this key", e);
        }
    }

    @Override
    public String toString() {
        return "SecretBox[AES-256-GCM]";
    }
}
