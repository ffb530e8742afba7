package io.agentgateway.decisionstream.config;

import io.agentgateway.decisioncore.evidence.EvidenceSettings;
import io.agentgateway.evidence.NoteKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.evidence.*}: how the decision stream seals each workspace's Merkle log (docs/evidence.md).
 *
 * @param enabled            sealing on (default) or off (the benchmark's comparison)
 * @param signingKey         the Ed25519 signing key, a C2SP/Go note signer key {@code PRIVATE+KEY+<name>+<id>+<base64>}
 *                           (the launcher generates one into its data directory); empty: checkpoints unsigned
 * @param previousPublicKeys verifier keys ({@code <name>+<id>+<base64>}) of earlier signing keys, served with the current
 *                           one so that older checkpoints still verify after a rotation
 * @param origin             the prefix of every workspace's log name ({@code <origin>/<workspace id>}); empty: the signing
 *                           key's name, else {@value EvidenceSettings#DEFAULT_ORIGIN_PREFIX}
 * @param checkpointEntries  a checkpoint after this many entries of a workspace
 * @param checkpointInterval a checkpoint at most this long after an entry, whether or not more come
 */
@ConfigurationProperties("gateway.evidence")
public record EvidenceProperties(
        @DefaultValue("true") boolean enabled,
        String signingKey,
        List<String> previousPublicKeys,
        String origin,
        @DefaultValue("1000") int checkpointEntries,
        @DefaultValue("PT10S") Duration checkpointInterval) {
    private static final Logger log = LoggerFactory.getLogger(EvidenceProperties.class);

    /** The settings; {@link IllegalArgumentException} naming the key that is wrong (never quoting a secret). */
    public EvidenceSettings settings() {
        Optional<NoteKeys.SignerKey> key = Optional.empty();
        if (signingKey != null && !signingKey.isBlank()) {
            try {
                key = Optional.of(NoteKeys.parseSigner(signingKey.trim()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("gateway.evidence.signing-key is not a signing key: " + e.getMessage());
            }
        }
        List<NoteKeys.VerifierKey> previous = new ArrayList<>();
        for (String vkey : previousPublicKeys == null ? List.<String>of() : previousPublicKeys) {
            if (vkey != null && !vkey.isBlank()) {
                try {
                    previous.add(NoteKeys.parseVerifier(vkey.trim()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("gateway.evidence.previous-public-keys holds a key that cannot be read: "
                            + e.getMessage());
                }
            }
        }
        String prefix = origin != null && !origin.isBlank() ? origin.trim()
                : key.map(NoteKeys.SignerKey::name).orElse(EvidenceSettings.DEFAULT_ORIGIN_PREFIX);
        if (enabled && key.isEmpty()) {
            log.warn("gateway.evidence.signing-key is not set: the audit log's checkpoints are issued unsigned, and verifiers"
                    + " refuse them unless told to accept that (docs/evidence.md)");
        }
        return new EvidenceSettings(enabled, prefix, key, previous, checkpointEntries, checkpointInterval);
    }
}
