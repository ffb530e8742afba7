package io.agentgateway.evidence;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A C2SP signed note: a text ending in a newline, a blank line, and signature lines
 * {@code — <key name> base64(key id || signature)}. A note without signatures is its text alone (what the gateway
 * issues when it has no signing key: "unsigned", and every verifier here refuses it unless told otherwise).
 *
 * <p>Verification follows the spec: signatures of unknown keys are ignored (a witness's cosignature, a rotated key);
 * a signature whose key name and id match a trusted key must verify, else the whole note is refused; at least one
 * trusted key's signature must verify.
 */
public record SignedNote(String text, List<NoteSignature> signatures) {
    private static final String SIGNATURE_PREFIX = "\u2014 ";
    /** Far above what one log's key and a few witnesses write; bounds what is read from a file or a table. */
    public static final int MAX_BYTES = 64 * 1024;
    private static final int MAX_SIGNATURES = 64;

    public SignedNote {
        if (text == null || text.isEmpty() || !text.endsWith("\n")) {
            throw new IllegalArgumentException("a note's text ends with a newline");
        }
        signatures = List.copyOf(signatures);
    }

    /** One signature line. */
    public record NoteSignature(String keyName, int keyId, byte[] signature) {
        public NoteSignature {
            signature = signature.clone();
        }

        @Override
        public byte[] signature() {
            return signature.clone();
        }

        String line() {
            byte[] bytes = ByteBuffer.allocate(4 + signature.length).putInt(keyId).put(signature).array();
            return SIGNATURE_PREFIX + keyName + " " + Base64.getEncoder().encodeToString(bytes) + "\n";
        }
    }

    /** The outcome of checking a note against trusted keys: the key that verified it, or why not. */
    public record Verified(Optional<NoteKeys.VerifierKey> by, String problem) {
        public boolean ok() {
            return by.isPresent();
        }

        static Verified by(NoteKeys.VerifierKey key) {
            return new Verified(Optional.of(key), null);
        }

        static Verified refused(String problem) {
            return new Verified(Optional.empty(), problem);
        }
    }

    /** The note as text: what is stored, served and published. */
    public String encoded() {
        if (signatures.isEmpty()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text).append('\n');
        signatures.forEach(signature -> out.append(signature.line()));
        return out.toString();
    }

    public boolean signed() {
        return !signatures.isEmpty();
    }

    /** {@code text} signed by {@code key} (Ed25519 is deterministic: the same text and key give the same note). */
    public static SignedNote sign(String text, NoteKeys.SignerKey key) {
        try {
            Signature ed25519 = Signature.getInstance("Ed25519");
            ed25519.initSign(key.jdkKey());
            ed25519.update(text.getBytes(StandardCharsets.UTF_8));
            return new SignedNote(text, List.of(new NoteSignature(key.name(), key.verifier().keyId(), ed25519.sign())));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }

    public static SignedNote unsigned(String text) {
        return new SignedNote(text, List.of());
    }

    /** This note with one more signature (a witness's cosignature added to the log's). */
    public SignedNote with(NoteSignature signature) {
        List<NoteSignature> all = new ArrayList<>(signatures);
        all.add(signature);
        return new SignedNote(text, all);
    }

    /** Parses a note; {@link IllegalArgumentException} saying what is wrong (never quoting it). */
    public static SignedNote parse(String note) {
        if (note == null || note.isEmpty()) {
            throw new IllegalArgumentException("empty note");
        }
        if (note.length() > MAX_BYTES) {
            throw new IllegalArgumentException("note over " + MAX_BYTES + " bytes");
        }
        for (int i = 0; i < note.length(); i++) {
            char c = note.charAt(i);
            if (c < 0x20 && c != '\n') {
                throw new IllegalArgumentException("a note holds no control characters but newlines");
            }
        }
        if (!note.endsWith("\n")) {
            throw new IllegalArgumentException("a note ends with a newline");
        }
        int split = note.lastIndexOf("\n\n");
        if (split < 0 || !note.startsWith(SIGNATURE_PREFIX, split + 2)) {
            // no signature block: the text alone (an unsigned checkpoint)
            return unsigned(note);
        }
        String text = note.substring(0, split + 1);
        String[] lines = note.substring(split + 2).split("\n");
        if (lines.length > MAX_SIGNATURES) {
            throw new IllegalArgumentException("more than " + MAX_SIGNATURES + " signatures");
        }
        List<NoteSignature> signatures = new ArrayList<>(lines.length);
        for (String line : lines) {
            if (!line.startsWith(SIGNATURE_PREFIX)) {
                throw new IllegalArgumentException("a signature line starts with an em dash and a space");
            }
            String[] parts = line.substring(SIGNATURE_PREFIX.length()).split(" ", -1);
            if (parts.length != 2 || parts[0].isEmpty()) {
                throw new IllegalArgumentException("a signature line is '— <key name> <base64 signature>'");
            }
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(parts[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("a signature is not base64");
            }
            if (bytes.length < 5) {
                throw new IllegalArgumentException("a signature shorter than its key id");
            }
            ByteBuffer in = ByteBuffer.wrap(bytes);
            int keyId = in.getInt();
            byte[] signature = new byte[bytes.length - 4];
            in.get(signature);
            signatures.add(new NoteSignature(parts[0], keyId, signature));
        }
        return new SignedNote(text, signatures);
    }

    /** Checks the note against {@code trusted} keys, as the signed-note spec says. */
    public Verified verify(Collection<NoteKeys.VerifierKey> trusted) {
        if (signatures.isEmpty()) {
            return Verified.refused("the note is not signed");
        }
        NoteKeys.VerifierKey verifiedBy = null;
        for (NoteSignature signature : signatures) {
            for (NoteKeys.VerifierKey key : trusted) {
                if (key.name().equals(signature.keyName()) && key.keyId() == signature.keyId()) {
                    if (!verifies(key, signature.signature())) {
                        return Verified.refused("the signature of trusted key " + key.name() + "+" + key.keyIdHex()
                                + " does not verify");
                    }
                    if (verifiedBy == null) {
                        verifiedBy = key;
                    }
                }
            }
        }
        if (verifiedBy == null) {
            StringBuilder names = new StringBuilder();
            for (NoteSignature signature : signatures) {
                names.append(names.isEmpty() ? "" : ", ").append(signature.keyName()).append('+')
                        .append(NoteKeys.hexId(signature.keyId()));
            }
            return Verified.refused("no signature by a trusted key (signed by " + names + ")");
        }
        return Verified.by(verifiedBy);
    }

    private boolean verifies(NoteKeys.VerifierKey key, byte[] signature) {
        try {
            Signature ed25519 = Signature.getInstance("Ed25519");
            ed25519.initVerify(key.jdkKey());
            ed25519.update(text.getBytes(StandardCharsets.UTF_8));
            return ed25519.verify(signature);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }
}
