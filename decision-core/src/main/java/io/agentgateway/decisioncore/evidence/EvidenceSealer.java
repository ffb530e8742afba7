package io.agentgateway.decisioncore.evidence;

import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.evidence.Checkpoint;
import io.agentgateway.evidence.Entry;
import io.agentgateway.evidence.Hashes;
import io.agentgateway.evidence.MerkleHasher;
import io.agentgateway.evidence.SignedNote;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.CheckpointIssued;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EvidenceSeal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * Seals a command's outcome into its workspace's Merkle log, in the order the stream decided it: each event that is
 * an entry ({@link EvidenceEntries}) gets the next sequence number, its leaf is appended to the workspace's compact
 * range, and its envelope carries the seal; once {@code checkpointEntries} entries wait, a signed checkpoint follows
 * as one more event of the same outcome. Sequence numbers and leaves are a pure function of the outcomes in log order,
 * so a replay seals the same log; Ed25519 signing is deterministic, so the checkpoints are the same too.
 *
 * <p>Pure but for the {@link EvidenceLog} it is handed, which it advances. One instance per stream task (it holds a
 * hasher): not thread-safe.
 */
public final class EvidenceSealer {
    static final Actor ACTOR = Actor.system("decision-stream");

    private final EvidenceSettings settings;
    private final MerkleHasher hasher = new MerkleHasher();

    public EvidenceSealer(EvidenceSettings settings) {
        this.settings = settings;
    }

    public EvidenceSettings settings() {
        return settings;
    }

    /**
     * The outcome with its entries sealed into {@code log} (which advances) and a checkpoint appended when due by count.
     * The same outcome when sealing is off, or when it holds no entry.
     */
    public Outcome seal(CommandEnvelope command, Outcome outcome, EvidenceLog log) {
        if (!settings.enabled() || outcome.events().isEmpty() || ReceiveWebhook.NO_WORKSPACE.equals(outcome.workspaceId())) {
            return outcome;
        }
        List<EventEnvelope> sealed = null;
        for (int i = 0; i < outcome.events().size(); i++) {
            EventEnvelope envelope = outcome.events().get(i);
            EvidenceEntries.PayloadDigests digests = envelope.event() instanceof ActionEvaluated evaluated
                    ? digests(evaluated, command.command())
                    : EvidenceEntries.PayloadDigests.NONE;
            // an audit row (most entries: one per evaluation) is encoded without a map
            EvidenceEntries.AuditRowValues auditRow = EvidenceEntries.auditRow(envelope, log.size(), digests);
            byte[] encoded;
            if (auditRow != null) {
                encoded = auditRow.encode();
            } else {
                Optional<Entry> entry = EvidenceEntries.of(envelope, log.size(), digests);
                if (entry.isEmpty()) {
                    continue;
                }
                encoded = entry.get().encode();
            }
            if (sealed == null) {
                sealed = new ArrayList<>(outcome.events());
            }
            // before the append: the first entry after a checkpoint starts the wait for the next one
            log.sealed(envelope.occurredAt().toEpochMilli(), envelope.workspaceVersion(), envelope.policySetVersion());
            sealed.set(i, envelope.withSeal(append(log, encoded, auditRow != null, digests)));
        }
        if (sealed == null) {
            return outcome;
        }
        if (log.size() - log.checkpointSize() >= settings.checkpointEntries()) {
            EventEnvelope last = sealed.get(sealed.size() - 1);
            sealed.add(new EventEnvelope(EventEnvelope.CURRENT_VERSION, DerivedIds.eventId(last.commandId(), sealed.size()),
                    last.workspaceId(), last.commandId(), last.correlationId(), last.occurredAt(), last.actor(),
                    last.workspaceVersion(), last.policySetVersion(), checkpoint(last.workspaceId(), log)));
        }
        return new Outcome(outcome.workspaceId(), outcome.status(), outcome.error(), outcome.evaluation(), sealed,
                outcome.notifications(), outcome.connection(), outcome.workspaceVersion(), outcome.approval());
    }

    /** Whether the workspace's log has entries that have waited {@code checkpointInterval} for a checkpoint. */
    public boolean checkpointDue(EvidenceLog log, long nowMs) {
        return settings.enabled() && log.pending() && nowMs - log.pendingSinceMs() >= settings.checkpointInterval().toMillis();
    }

    /**
     * The checkpoint a timer issues for a log with entries waiting: a record of its own, with ids derived from the
     * workspace and the tree size (a checkpoint of one size is issued once; issued again after a crash, it is the same
     * record), the versions of the last sealed event, and the system as actor. {@code log} records it.
     */
    public EventEnvelope timedCheckpoint(String workspaceId, EvidenceLog log, Instant now) {
        String id = "checkpoint:" + workspaceId + ":" + log.size();
        return new EventEnvelope(EventEnvelope.CURRENT_VERSION,
                UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8)).toString(), workspaceId, id, id, now, ACTOR,
                log.workspaceVersion(), log.policySetVersion(), checkpoint(workspaceId, log));
    }

    private CheckpointIssued checkpoint(String workspaceId, EvidenceLog log) {
        Checkpoint checkpoint = new Checkpoint(settings.origin(workspaceId), log.size(), log.range().root(hasher));
        SignedNote note = settings.signingKey()
                .map(key -> SignedNote.sign(checkpoint.body(), key))
                .orElseGet(() -> SignedNote.unsigned(checkpoint.body()));
        log.checkpointed();
        return new CheckpointIssued(checkpoint.origin(), checkpoint.size(), Hashes.base64(checkpoint.rootHash()),
                note.encoded(), settings.signingKey().map(key -> key.verifier().text()).orElse(null));
    }

    private EvidenceSeal append(EvidenceLog log, byte[] encoded, boolean auditRow, EvidenceEntries.PayloadDigests digests) {
        long sequence = log.size();
        byte[] leaf = hasher.leaf(encoded);
        List<byte[]> completed = log.range().append(leaf, hasher);
        List<String> nodes = completed.isEmpty() ? List.of() : completed.stream().map(Hashes::base64).toList();
        return new EvidenceSeal(sequence, Hashes.base64(leaf), nodes, digests.payloadSha256(), digests.excerptSha256(),
                auditRow ? null : Base64.getEncoder().encodeToString(encoded));
    }

    /**
     * The digests of an evaluation's payload: of its stored excerpt, and of the whole payload as compact JSON (the text
     * the excerpt was cut from: the same bytes when it was not cut). None when the command carried no payload.
     */
    private static EvidenceEntries.PayloadDigests digests(ActionEvaluated evaluated, Command command) {
        String excerpt = evaluated.payloadExcerpt();
        String excerptSha256 = excerpt == null ? null : Hashes.sha256Hex(excerpt);
        if (excerpt != null && !evaluated.payloadTruncated()) {
            return new EvidenceEntries.PayloadDigests(excerptSha256, excerptSha256);
        }
        JsonNode payload = command instanceof EvaluateAction evaluate ? evaluate.payload()
                : command instanceof ReceiveWebhook webhook ? webhook.payload() : null;
        String payloadSha256 = payload == null || payload.isMissingNode() ? null
                : Hashes.sha256Hex(GatewayJson.MAPPER.writeValueAsString(payload));
        return new EvidenceEntries.PayloadDigests(payloadSha256, excerptSha256);
    }
}
