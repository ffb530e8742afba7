package io.agentgateway.decisioncore.evidence;

import io.agentgateway.evidence.NoteKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How the decision stream seals each workspace's Merkle log.
 *
 * @param enabled            false: no entry is sealed and no checkpoint issued (the benchmark's switch; a log
 *                           switched off and on again resumes from the state it kept)
 * @param originPrefix       a workspace's log is named {@code <originPrefix>/<workspace id>} (the checkpoints' origin)
 * @param signingKey         the Ed25519 key checkpoints are signed with; empty: checkpoints are issued unsigned and say
 *                           so (the text alone), and every verifier refuses them unless told to accept that
 * @param previousKeys       public keys of earlier signing keys, kept so that their checkpoints still verify
 * @param checkpointEntries  a checkpoint once this many entries were sealed since the last one
 * @param checkpointInterval a checkpoint at most this long after an entry no checkpoint covers yet
 */
public record EvidenceSettings(boolean enabled, String originPrefix, Optional<NoteKeys.SignerKey> signingKey,
                               List<NoteKeys.VerifierKey> previousKeys, int checkpointEntries, Duration checkpointInterval) {

    public static final String DEFAULT_ORIGIN_PREFIX = "agent-action-gateway.local/audit";

    public EvidenceSettings {
        Objects.requireNonNull(originPrefix, "originPrefix");
        Objects.requireNonNull(signingKey, "signingKey");
        previousKeys = List.copyOf(previousKeys);
        if (originPrefix.isBlank() || originPrefix.contains("\n") || originPrefix.contains("+")
                || originPrefix.codePoints().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("gateway.evidence.origin must be one word without spaces or '+', e.g. gateway.example.com/audit");
        }
        if (checkpointEntries < 1) {
            throw new IllegalArgumentException("gateway.evidence.checkpoint-entries must be at least 1");
        }
        if (checkpointInterval.isNegative() || checkpointInterval.isZero()) {
            throw new IllegalArgumentException("gateway.evidence.checkpoint-interval must be positive");
        }
    }

    /** Sealing off (what the topology's plain {@code build(settings)} runs with). */
    public static EvidenceSettings disabled() {
        return new EvidenceSettings(false, DEFAULT_ORIGIN_PREFIX, Optional.empty(), List.of(), 1000, Duration.ofSeconds(10));
    }

    /** Sealing on, checkpoints every 1,000 entries or 10 seconds, signed with {@code key} when there is one. */
    public static EvidenceSettings of(Optional<NoteKeys.SignerKey> key) {
        return new EvidenceSettings(true, key.map(NoteKeys.SignerKey::name).orElse(DEFAULT_ORIGIN_PREFIX), key, List.of(),
                1000, Duration.ofSeconds(10));
    }

    public EvidenceSettings withCheckpoints(int entries, Duration interval) {
        return new EvidenceSettings(enabled, originPrefix, signingKey, previousKeys, entries, interval);
    }

    /** The origin line of a workspace's checkpoints. */
    public String origin(String workspaceId) {
        return originPrefix + "/" + workspaceId;
    }

    /** Every public key a verifier of this gateway's checkpoints should trust: the current one first, then earlier ones. */
    public List<NoteKeys.VerifierKey> publicKeys() {
        List<NoteKeys.VerifierKey> keys = new ArrayList<>();
        signingKey.ifPresent(key -> keys.add(key.verifier()));
        previousKeys.stream().filter(key -> !keys.contains(key)).forEach(keys::add);
        return List.copyOf(keys);
    }
}
