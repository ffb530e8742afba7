package io.agentgateway.evidence;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Ed25519 keys in the text forms of C2SP signed notes (the forms of Go's {@code golang.org/x/mod/sumdb/note}), with the
 * JDK's own Ed25519 (no library):
 *
 * <ul>
 *   <li>verifier key (vkey): {@code <name>+<key id, 8 hex>+base64(0x01 || 32-byte public key)};</li>
 *   <li>signer key (skey): {@code PRIVATE+KEY+<name>+<key id, 8 hex>+base64(0x01 || 32-byte seed)};</li>
 *   <li>key id: the first four bytes of {@code SHA-256(name || 0x0A || 0x01 || public key)}, big-endian.</li>
 * </ul>
 */
public final class NoteKeys {
    static final byte ED25519 = 0x01;
    private static final String PRIVATE_PREFIX = "PRIVATE+KEY+";
    /** DER prefix of an X.509 SubjectPublicKeyInfo for Ed25519; the raw 32-byte key follows it. */
    private static final byte[] X509_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

    private NoteKeys() {}

    /** A public key able to verify a signer's notes. */
    public record VerifierKey(String name, int keyId, byte[] publicKey) {
        public VerifierKey {
            checkName(name);
            if (publicKey.length != 32) {
                throw new IllegalArgumentException("an Ed25519 public key is 32 bytes");
            }
            publicKey = publicKey.clone();
        }

        @Override
        public byte[] publicKey() {
            return publicKey.clone();
        }

        /** The vkey text. */
        public String text() {
            byte[] typed = new byte[33];
            typed[0] = ED25519;
            System.arraycopy(publicKey, 0, typed, 1, 32);
            return name + "+" + hexId(keyId) + "+" + Base64.getEncoder().encodeToString(typed);
        }

        public String keyIdHex() {
            return hexId(keyId);
        }

        PublicKey jdkKey() {
            try {
                byte[] encoded = Arrays.copyOf(X509_PREFIX, X509_PREFIX.length + 32);
                System.arraycopy(publicKey, 0, encoded, X509_PREFIX.length, 32);
                return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(encoded));
            } catch (GeneralSecurityException e) {
                throw new IllegalArgumentException("not an Ed25519 public key");
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof VerifierKey key && key.name.equals(name) && key.keyId == keyId
                    && Arrays.equals(key.publicKey, publicKey);
        }

        @Override
        public int hashCode() {
            return name.hashCode() * 31 + keyId;
        }

        @Override
        public String toString() {
            return text();
        }
    }

    /** A private key that signs notes, with its verifier key. Its {@code toString} never shows the seed. */
    public static final class SignerKey {
        private final VerifierKey verifier;
        private final PrivateKey privateKey;
        private final byte[] seed;

        private SignerKey(String name, byte[] seed) {
            this.seed = seed.clone();
            try {
                this.privateKey = KeyFactory.getInstance("Ed25519")
                        .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, this.seed));
            } catch (GeneralSecurityException e) {
                throw new IllegalArgumentException("not an Ed25519 private key");
            }
            byte[] publicKey = publicKeyOf(this.seed);
            this.verifier = new VerifierKey(name, keyId(name, publicKey), publicKey);
        }

        public VerifierKey verifier() {
            return verifier;
        }

        public String name() {
            return verifier.name();
        }

        PrivateKey jdkKey() {
            return privateKey;
        }

        /** The skey text: a secret, to be stored like one. */
        public String text() {
            byte[] typed = new byte[33];
            typed[0] = ED25519;
            System.arraycopy(seed, 0, typed, 1, 32);
            return PRIVATE_PREFIX + verifier.name() + "+" + hexId(verifier.keyId()) + "+" + Base64.getEncoder().encodeToString(typed);
        }

        @Override
        public String toString() {
            return "SignerKey[" + verifier.text() + "]";
        }
    }

    /** A new key pair named {@code name}. */
    public static SignerKey generate(String name, SecureRandom random) {
        byte[] seed = new byte[32];
        random.nextBytes(seed);
        return new SignerKey(checkName(name), seed);
    }

    /** The signer key of an skey text; {@link IllegalArgumentException} (never quoting the text) for anything else. */
    public static SignerKey parseSigner(String text) {
        if (text == null || !text.startsWith(PRIVATE_PREFIX)) {
            throw new IllegalArgumentException("a signing key starts with " + PRIVATE_PREFIX);
        }
        String[] parts = text.substring(PRIVATE_PREFIX.length()).trim().split("\\+", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException("a signing key is PRIVATE+KEY+<name>+<key id>+<base64 key>");
        }
        byte[] typed = base64(parts[2]);
        if (typed.length != 33 || typed[0] != ED25519) {
            throw new IllegalArgumentException("only Ed25519 signing keys (type 0x01, 32 bytes) are supported");
        }
        SignerKey key = new SignerKey(checkName(parts[0]), Arrays.copyOfRange(typed, 1, 33));
        if (!hexId(key.verifier().keyId()).equals(parts[1])) {
            throw new IllegalArgumentException("the signing key's id does not match its name and key");
        }
        return key;
    }

    /** The verifier key of a vkey text; {@link IllegalArgumentException} for anything else. */
    public static VerifierKey parseVerifier(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no verifier key");
        }
        String[] parts = text.trim().split("\\+", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException("a verifier key is <name>+<key id>+<base64 key>");
        }
        byte[] typed = base64(parts[2]);
        if (typed.length != 33 || typed[0] != ED25519) {
            throw new IllegalArgumentException("only Ed25519 verifier keys (type 0x01, 32 bytes) are supported");
        }
        byte[] publicKey = Arrays.copyOfRange(typed, 1, 33);
        int id = keyId(checkName(parts[0]), publicKey);
        if (!hexId(id).equals(parts[1])) {
            throw new IllegalArgumentException("the verifier key's id does not match its name and key");
        }
        VerifierKey key = new VerifierKey(parts[0], id, publicKey);
        key.jdkKey();
        return key;
    }

    /** {@code SHA-256(name || 0x0A || 0x01 || public key)[:4]}, big-endian. */
    public static int keyId(String name, byte[] publicKey) {
        MessageDigest sha256 = MerkleHasher.newSha256();
        sha256.update(name.getBytes(StandardCharsets.UTF_8));
        sha256.update((byte) 0x0A);
        sha256.update(ED25519);
        sha256.update(publicKey);
        return ByteBuffer.wrap(sha256.digest()).getInt();
    }

    static String hexId(int keyId) {
        return String.format("%08x", keyId);
    }

    static String checkName(String name) {
        if (name == null || name.isEmpty() || name.codePoints().anyMatch(c -> c == '+' || Character.isWhitespace(c)
                || Character.isSpaceChar(c) || c < 0x20)) {
            throw new IllegalArgumentException("a key name is non-empty, without spaces or '+'");
        }
        return name;
    }

    private static byte[] base64(String text) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the key is not base64");
        }
    }

    /**
     * The RFC 8032 public key of a seed. The JDK derives it only while generating a pair, so the generator is handed a
     * random source that yields exactly the seed.
     */
    private static byte[] publicKeyOf(byte[] seed) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            generator.initialize(NamedParameterSpec.ED25519, new FixedSeed(seed));
            KeyPair pair = generator.generateKeyPair();
            byte[] encoded = pair.getPublic().getEncoded();
            return Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the Java runtime has no Ed25519", e);
        }
    }

    /** A "random" source that gives exactly one seed (what {@link #publicKeyOf} needs of the key generator). */
    private static final class FixedSeed extends SecureRandom {
        private final byte[] seed;

        FixedSeed(byte[] seed) {
            this.seed = seed;
        }

        @Override
        public void nextBytes(byte[] bytes) {
            if (bytes.length != seed.length) {
                throw new IllegalStateException("the key generator asked for " + bytes.length + " bytes, not a 32-byte seed");
            }
            System.arraycopy(seed, 0, bytes, 0, seed.length);
        }
    }
}
