package io.agentgateway.decisioncore.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.evidence.EvidenceEntries;
import io.agentgateway.decisioncore.evidence.EvidenceLog;
import io.agentgateway.decisioncore.evidence.EvidenceSealer;
import io.agentgateway.decisioncore.evidence.EvidenceSettings;
import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.evidence.Checkpoint;
import io.agentgateway.evidence.CompactRange;
import io.agentgateway.evidence.Entry;
import io.agentgateway.evidence.EntryEncoding;
import io.agentgateway.evidence.EntryKinds;
import io.agentgateway.evidence.Hashes;
import io.agentgateway.evidence.MerkleHasher;
import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.evidence.SignedNote;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.EraseAuditPayload;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.AuditPayloadErased;
import io.agentgateway.schemas.event.CheckpointIssued;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EvidenceSeal;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Sealing outcomes into the workspace's Merkle log ({@code evidence} package) and the erasure command: sequence numbers
 * in decision order, leaves that are the entries of the events, nodes and roots as an independent tree has them, a
 * checkpoint every N entries that verifies with the gateway's key, the payload's digests, and the same seals again
 * from the same outcomes (a replay).
 */
class EvidenceSealingTest {
    private static final NoteKeys.SignerKey KEY = NoteKeys.generate("gateway.test/audit", new SecureRandom());
    private final MerkleHasher hasher = new MerkleHasher();

    @Test
    void sealsEveryEntryInDecisionOrderAndCheckpointsEveryNEntries() {
        CoreWorkspace workspace = CoreWorkspace.create();
        EvidenceSealer sealer = new EvidenceSealer(EvidenceSettings.of(Optional.of(KEY)).withCheckpoints(3, Duration.ofSeconds(10)));
        EvidenceLog log = EvidenceLog.empty();
        List<Outcome> sealed = new ArrayList<>();
        for (Decided decided : history(workspace)) {
            sealed.add(sealer.seal(decided.envelope(), decided.outcome(), log));
        }

        CompactRange independent = CompactRange.empty();
        long expected = 0;
        List<CheckpointIssued> checkpoints = new ArrayList<>();
        for (Outcome outcome : sealed) {
            for (EventEnvelope envelope : outcome.events()) {
                if (envelope.event() instanceof CheckpointIssued checkpoint) {
                    assertThat(envelope.seal()).isNull();
                    assertThat(checkpoint.treeSize()).isEqualTo(independent.size());
                    assertThat(checkpoint.rootHash()).isEqualTo(Hashes.base64(independent.root(hasher)));
                    checkpoints.add(checkpoint);
                    continue;
                }
                EvidenceSeal seal = envelope.seal();
                Optional<Entry> entry = EvidenceEntries.of(envelope, expected, digestsOf(seal));
                if (entry.isEmpty()) {
                    assertThat(seal).as("%s is not an entry", envelope.event().getClass().getSimpleName()).isNull();
                    continue;
                }
                assertThat(seal.sequence()).isEqualTo(expected);
                byte[] leaf = hasher.leaf(entry.get().encode());
                assertThat(seal.leafHash()).isEqualTo(Hashes.base64(leaf));
                List<byte[]> completed = independent.append(leaf, hasher);
                assertThat(seal.nodes()).containsExactlyElementsOf(completed.stream().map(Hashes::base64).toList());
                if (EntryKinds.isAuditRow(entry.get().kind())) {
                    assertThat(seal.entry()).isNull();
                } else {
                    assertThat(EntryEncoding.decode(Base64.getDecoder().decode(seal.entry()))).isEqualTo(entry.get());
                }
                expected++;
            }
        }
        // evaluations, the kill switch, the policy, the erasure: ten entries; a checkpoint at 3, 6 and 9
        assertThat(expected).isEqualTo(10);
        assertThat(log.size()).isEqualTo(10);
        assertThat(log.range().root(hasher)).isEqualTo(independent.root(hasher));
        assertThat(checkpoints).extracting(CheckpointIssued::treeSize).containsExactly(3L, 6L, 9L);
        for (CheckpointIssued checkpoint : checkpoints) {
            SignedNote note = SignedNote.parse(checkpoint.note());
            assertThat(note.verify(List.of(KEY.verifier())).ok()).isTrue();
            assertThat(Checkpoint.parse(note.text()).origin()).isEqualTo("gateway.test/audit/" + workspace.id);
            assertThat(checkpoint.signedBy()).isEqualTo(KEY.verifier().text());
        }
        // a checkpoint is one more event of its command's outcome, with the id the stored outcome derives again
        Outcome withCheckpoint = sealed.stream().filter(o -> o.events().stream().anyMatch(e -> e.event() instanceof CheckpointIssued))
                .findFirst().orElseThrow();
        EventEnvelope last = withCheckpoint.events().get(withCheckpoint.events().size() - 1);
        assertThat(last.eventId()).isEqualTo(io.agentgateway.schemas.DerivedIds.eventId(last.commandId(),
                withCheckpoint.events().size() - 1));

        // the stored form keeps the range and where the last checkpoint was
        EvidenceLog stored = EvidenceLog.decode(log.encode());
        assertThat(stored.range().root(hasher)).isEqualTo(log.range().root(hasher));
        assertThat(stored.checkpointSize()).isEqualTo(9);
    }

    @Test
    void theSameOutcomesSealTheSameWay() {
        CoreWorkspace workspace = CoreWorkspace.create();
        List<Decided> history = history(workspace);
        EvidenceSettings settings = EvidenceSettings.of(Optional.of(KEY)).withCheckpoints(4, Duration.ofSeconds(10));
        List<Outcome> first = sealAll(new EvidenceSealer(settings), history);
        List<Outcome> second = sealAll(new EvidenceSealer(settings), history);
        assertThat(second).isEqualTo(first);
    }

    @Test
    void sealsThePayloadsDigests() {
        CoreWorkspace workspace = CoreWorkspace.create(DecisionSettings.defaults().withPayloadExcerptBytes(16));
        EvidenceSealer sealer = new EvidenceSealer(EvidenceSettings.of(Optional.empty()));
        EvidenceLog log = EvidenceLog.empty();
        String small = "{\"a\":1}";
        String large = "{\"message\":\"" + "x".repeat(100) + "\"}";
        Decided whole = workspace.evaluate(withPayload(small));
        Decided cut = workspace.evaluate(withPayload(large));
        EvidenceSeal wholeSeal = sealer.seal(whole.envelope(), whole.outcome(), log).events().get(0).seal();
        EvidenceSeal cutSeal = sealer.seal(cut.envelope(), cut.outcome(), log).events().get(0).seal();

        assertThat(wholeSeal.payloadExcerptSha256()).isEqualTo(Hashes.sha256Hex(small)).isEqualTo(wholeSeal.payloadSha256());
        ActionEvaluated cutEvent = cut.event(0, ActionEvaluated.class);
        assertThat(cutEvent.payloadTruncated()).isTrue();
        assertThat(cutSeal.payloadExcerptSha256()).isEqualTo(Hashes.sha256Hex(cutEvent.payloadExcerpt()));
        assertThat(cutSeal.payloadSha256()).isEqualTo(Hashes.sha256Hex(large));
    }

    @Test
    void unsignedWithoutAKeyAndNothingWhenOff() {
        CoreWorkspace workspace = CoreWorkspace.create();
        Decided decided = workspace.evaluate(Tool.CODE_HOST, "repos.get", RiskLevel.LOW);
        EvidenceSealer unsigned = new EvidenceSealer(EvidenceSettings.of(Optional.empty()).withCheckpoints(1, Duration.ofSeconds(10)));
        Outcome outcome = unsigned.seal(decided.envelope(), decided.outcome(), EvidenceLog.empty());
        CheckpointIssued checkpoint = (CheckpointIssued) outcome.events().get(1).event();
        assertThat(checkpoint.signedBy()).isNull();
        assertThat(SignedNote.parse(checkpoint.note()).signed()).isFalse();
        assertThat(checkpoint.origin()).isEqualTo(EvidenceSettings.DEFAULT_ORIGIN_PREFIX + "/" + workspace.id);

        EvidenceLog log = EvidenceLog.empty();
        assertThat(new EvidenceSealer(EvidenceSettings.disabled()).seal(decided.envelope(), decided.outcome(), log))
                .isSameAs(decided.outcome());
        assertThat(log.size()).isZero();
    }

    @Test
    void aTimerIssuesACheckpointForEntriesThatWaited() {
        CoreWorkspace workspace = CoreWorkspace.create();
        EvidenceSealer sealer = new EvidenceSealer(EvidenceSettings.of(Optional.of(KEY)).withCheckpoints(1000, Duration.ofSeconds(10)));
        EvidenceLog log = EvidenceLog.empty();
        Decided decided = workspace.evaluate(Tool.CODE_HOST, "repos.get", RiskLevel.LOW);
        sealer.seal(decided.envelope(), decided.outcome(), log);
        long decidedAt = decided.envelope().acceptedAt().toEpochMilli();
        assertThat(sealer.checkpointDue(log, decidedAt + 9_999)).isFalse();
        assertThat(sealer.checkpointDue(log, decidedAt + 10_000)).isTrue();
        EventEnvelope checkpoint = sealer.timedCheckpoint(workspace.id, log, decided.envelope().acceptedAt().plusSeconds(10));
        assertThat(((CheckpointIssued) checkpoint.event()).treeSize()).isEqualTo(1);
        assertThat(checkpoint.workspaceVersion()).isEqualTo(decided.outcome().events().get(0).workspaceVersion());
        assertThat(sealer.checkpointDue(log, decidedAt + 60_000)).isFalse();
        // the same size, the same record
        assertThat(checkpoint.eventId()).isEqualTo(sealer.timedCheckpoint(workspace.id, EvidenceLog.decode(log.encode()),
                decided.envelope().acceptedAt()).eventId());
    }

    @Test
    void anAdminErasesAPayloadAndNobodyElseDoes() {
        CoreWorkspace workspace = CoreWorkspace.create();
        String auditLogId = workspace.evaluate(Tool.CODE_HOST, "repos.get", RiskLevel.LOW).event(0, ActionEvaluated.class).auditLogId();
        Decided erased = workspace.admin(new EraseAuditPayload(auditLogId, "DSR-1")).ok();
        assertThat(erased.event(0, AuditPayloadErased.class)).isEqualTo(new AuditPayloadErased(auditLogId, "DSR-1"));
        assertThat(erased.after().workspaceVersion()).isEqualTo(erased.before().workspaceVersion());

        workspace.as(workspace.member("viewer-1", Role.MEMBER), new EraseAuditPayload(auditLogId, null))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
        workspace.admin(new EraseAuditPayload("not-an-id", null)).refused(ReplyStatus.INVALID, "auditLogId must be a lower-case UUID");
        workspace.admin(new EraseAuditPayload(auditLogId, "x".repeat(2001)))
                .refused(ReplyStatus.INVALID, "reason must be at most 2000 characters");
        workspace.as(workspace.agent, new EraseAuditPayload(auditLogId, null))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
    }

    /** Evaluations, a held one, a kill switch, a policy, an erasure: a workspace's history with entries of most kinds. */
    private static List<Decided> history(CoreWorkspace workspace) {
        List<Decided> history = new ArrayList<>();
        history.add(workspace.evaluate(Tool.CODE_HOST, "repos.get", RiskLevel.LOW));
        history.add(workspace.evaluate(Tool.CODE_HOST, "repos.delete", RiskLevel.HIGH));
        history.add(workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CHAT)));
        history.add(workspace.admin(new UpsertPolicy(new Policy(UUID.randomUUID().toString(), "block deletes", 1, true,
                Decision.BLOCK, new PolicyMatch(Set.of(Tool.CODE_HOST), List.of("*.delete"), Set.of(), List.of(), List.of(),
                List.of(), Set.of()), null))));
        history.add(workspace.evaluate(Tool.CODE_HOST, "repos.delete", RiskLevel.HIGH));
        history.add(workspace.admin(new io.agentgateway.schemas.command.SetMember("user-9", "u9@example.com", Role.ADMIN)));
        for (int i = 0; i < 3; i++) {
            history.add(workspace.evaluate(Tool.CODE_HOST, "repos.get", RiskLevel.LOW));
        }
        String erased = history.get(0).event(0, ActionEvaluated.class).auditLogId();
        history.add(workspace.admin(new EraseAuditPayload(erased, "privacy")));
        return history;
    }

    private static List<Outcome> sealAll(EvidenceSealer sealer, List<Decided> history) {
        EvidenceLog log = EvidenceLog.empty();
        List<Outcome> sealed = new ArrayList<>();
        history.forEach(decided -> sealed.add(sealer.seal(decided.envelope(), decided.outcome(), log)));
        return sealed;
    }

    private static EvidenceEntries.PayloadDigests digestsOf(EvidenceSeal seal) {
        return seal == null ? new EvidenceEntries.PayloadDigests(null, null)
                : new EvidenceEntries.PayloadDigests(seal.payloadSha256(), seal.payloadExcerptSha256());
    }

    private static EvaluateAction withPayload(String json) {
        return new EvaluateAction(Tool.INTERNAL_API, "notes.write", RiskLevel.LOW, "agent-7", null, null, null,
                GatewayJson.MAPPER.readTree(json), null, ActionSource.EVALUATE, Scope.EVALUATE, false);
    }

}
