package io.agentgateway.adminapi.evidence;

import io.agentgateway.evidence.NoteKeys;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code gateway.evidence.*} as the ingress reads it: which keys the audit log's checkpoints must be signed by
 * (the live check trusts these, never a key found in the database), and the log's origin prefix.
 *
 * @param publicKeys         verifier keys ({@code <name>+<id>+<base64>}) of the decision stream's signing keys
 * @param signingKey         the stream's signing key when this process is given it too (the launcher's embedded
 *                           default): its public half is trusted; the private half is not used here
 * @param previousPublicKeys earlier signing keys' verifier keys, trusted for the checkpoints they signed
 * @param origin             the origin prefix the stream names its logs with (informational: a checkpoint says its own)
 */
@ConfigurationProperties("gateway.evidence")
public record EvidenceKeyProperties(List<String> publicKeys, String signingKey, List<String> previousPublicKeys,
                                    String origin) {

    /** The trusted keys, current first; empty when none is configured (then checkpoints are taken to be unsigned). */
    public List<NoteKeys.VerifierKey> trustedKeys() {
        List<NoteKeys.VerifierKey> keys = new ArrayList<>();
        if (signingKey != null && !signingKey.isBlank()) {
            try {
                keys.add(NoteKeys.parseSigner(signingKey.trim()).verifier());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("gateway.evidence.signing-key is not a signing key: " + e.getMessage());
            }
        }
        addAll(keys, publicKeys, "gateway.evidence.public-keys");
        addAll(keys, previousPublicKeys, "gateway.evidence.previous-public-keys");
        return List.copyOf(keys);
    }

    private static void addAll(List<NoteKeys.VerifierKey> keys, List<String> texts, String property) {
        for (String text : texts == null ? List.<String>of() : texts) {
            if (text == null || text.isBlank()) {
                continue;
            }
            NoteKeys.VerifierKey key;
            try {
                key = NoteKeys.parseVerifier(text.trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(property + " holds a key that cannot be read: " + e.getMessage());
            }
            if (!keys.contains(key)) {
                keys.add(key);
            }
        }
    }
}
