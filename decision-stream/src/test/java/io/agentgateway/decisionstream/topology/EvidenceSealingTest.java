package io.agentgateway.decisionstream.topology;

import static io.agentgateway.decisionstream.topology.TestWorkspace.action;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.evidence.EvidenceEntries;
import io.agentgateway.decisioncore.evidence.EvidenceLog;
import io.agentgateway.decisioncore.evidence.EvidenceSettings;
import io.agentgateway.evidence.CompactRange;
import io.agentgateway.evidence.Entry;
import io.agentgateway.evidence.Hashes;
import io.agentgateway.evidence.MerkleHasher;
import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.evidence.SignedNote;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EraseAuditPayload;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.AuditPayloadErased;
import io.agentgateway.schemas.event.CheckpointIssued;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EvidenceSeal;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decision stream sequences each workspace's Merkle log: every entry of every outcome sealed in log order, the
 * compact range kept in the {@code evidence-log} store, a redelivered command re-emitting its seals instead of adding
 * leaves, checkpoints every N entries and by the wall clock, and a replay of the same commands sealing the same log.
 */
class EvidenceSealingTest {
    private static final NoteKeys.SignerKey KEY = NoteKeys.generate("gateway.test/audit", new SecureRandom());
    private final MerkleHasher hasher = new MerkleHasher();
    @TempDir
    Path stateDir;
    @TempDir
    Path replayDir;
    private final List<DecisionDriver> drivers = new ArrayList<>();

    private DecisionDriver driver(Path dir, int checkpointEntries) {
        DecisionDriver driver = new DecisionDriver(DecisionSettings.defaults(), dir,
                EvidenceSettings.of(Optional.of(KEY)).withCheckpoints(checkpointEntries, Duration.ofSeconds(10)),
                TestWorkspace.START);
        drivers.add(driver);
        return driver;
    }

    @AfterEach
    void close() {
        drivers.forEach(DecisionDriver::close);
    }

    @Test
    void sealsEveryEntryInLogOrderAndARedeliveryAddsNoLeaf() {
        DecisionDriver driver = driver(stateDir, 1000);
        TestWorkspace workspace = TestWorkspace.create(driver);
        TestWorkspace other = TestWorkspace.create(driver);
        CommandEnvelope evaluation = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                action(Tool.CODE_HOST, "repos.get", RiskLevel.LOW).payload(GatewayJson.MAPPER.readTree("{\"repo\":\"acme/api\"}")).build());
        Emitted first = driver.send(evaluation);
        workspace.evaluate(Tool.CODE_HOST, "repos.delete", RiskLevel.HIGH).evaluation();
        other.evaluate(Tool.CODE_HOST, "repos.get", RiskLevel.LOW).evaluation();
        workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CHAT)).ok();
        workspace.upsertPolicy("block deletes", 1, Decision.BLOCK, TestWorkspace.matchActions("*.delete"));

        // redelivered: the same records, seals included; the log does not grow
        Emitted again = driver.send(evaluation);
        assertThat(again).isEqualTo(first);
        assertThat(first.events().get(0).seal().sequence()).isZero();
        workspace.evaluate(Tool.CODE_HOST, "repos.delete", RiskLevel.HIGH).evaluation();

        List<EventEnvelope> log = driver.eventLog().stream().filter(e -> e.workspaceId().equals(workspace.id)).toList();
        CompactRange range = recomputed(log);
        // the evaluation, the held one (and its approval request), the kill switch, the policy, the last evaluation
        assertThat(range.size()).isEqualTo(6);
        EvidenceLog stored = EvidenceLog.decode(driver.<byte[]>keyValueStore(DecisionTopology.EVIDENCE_LOG_STORE).get(workspace.id));
        assertThat(stored.size()).isEqualTo(6);
        assertThat(stored.range().root(hasher)).isEqualTo(range.root(hasher));
        // each workspace its own log, from 0
        assertThat(driver.eventLog().stream().filter(e -> e.workspaceId().equals(other.id) && e.seal() != null)
                .map(e -> e.seal().sequence()).toList()).containsExactly(0L);
        // the payload's digest is sealed, the payload itself is not in the entry
        EvidenceSeal seal = first.events().get(0).seal();
        assertThat(seal.payloadSha256()).isEqualTo(Hashes.sha256Hex("{\"repo\":\"acme/api\"}"));
        assertThat(seal.entry()).isNull();
    }

    @Test
    void checkpointsEveryNEntriesAndByTheWallClock() {
        DecisionDriver driver = driver(stateDir, 3);
        TestWorkspace workspace = TestWorkspace.create(driver);
        List<CheckpointIssued> checkpoints = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Emitted emitted = workspace.evaluate(Tool.CODE_HOST, "repos.get", RiskLevel.LOW);
            emitted.events().stream().filter(e -> e.event() instanceof CheckpointIssued)
                    .forEach(e -> checkpoints.add((CheckpointIssued) e.event()));
        }
        assertThat(checkpoints).extracting(CheckpointIssued::treeSize).containsExactly(3L);
        CompactRange three = recomputed(driver.eventLog().subList(0, driver.eventLog().size()).stream()
                .filter(e -> e.seal() != null && e.seal().sequence() < 3).toList());
        assertThat(checkpoints.get(0).rootHash()).isEqualTo(Hashes.base64(three.root(hasher)));
        assertThat(SignedNote.parse(checkpoints.get(0).note()).verify(List.of(KEY.verifier())).ok()).isTrue();

        // the fourth entry waits; ten seconds after it was decided the timer signs it
        assertThat(driver.advanceWallClock(Duration.ofSeconds(5)).events()).isEmpty();
        Emitted timed = driver.advanceWallClock(Duration.ofSeconds(10));
        CheckpointIssued byTime = timed.only(CheckpointIssued.class);
        assertThat(byTime.treeSize()).isEqualTo(4);
        assertThat(timed.events().get(0).seal()).isNull();
        assertThat(driver.advanceWallClock(Duration.ofSeconds(30)).events()).as("nothing more to sign").isEmpty();
    }

    @Test
    void aReplayOfTheSameCommandsSealsTheSameLog() {
        DecisionDriver live = driver(stateDir, 2);
        TestWorkspace workspace = TestWorkspace.create(live);
        for (int i = 0; i < 5; i++) {
            workspace.evaluate(Tool.CODE_HOST, i % 2 == 0 ? "repos.get" : "repos.delete", i % 2 == 0 ? RiskLevel.LOW : RiskLevel.HIGH);
        }
        String auditLogId = ((ActionEvaluated) live.eventLog().stream().filter(e -> e.event() instanceof ActionEvaluated)
                .findFirst().orElseThrow().event()).auditLogId();
        Emitted erased = workspace.admin(new EraseAuditPayload(auditLogId, "privacy request"));
        assertThat(erased.ok().status()).isNotNull();
        assertThat(erased.event(0, AuditPayloadErased.class).auditLogId()).isEqualTo(auditLogId);
        assertThat(erased.events().get(0).seal().entry()).isNotNull();

        DecisionDriver replay = driver(replayDir, 2);
        List<CommandEnvelope> commands = workspace.sent();
        commands.forEach(replay::send);
        assertThat(replay.eventLog()).isEqualTo(live.eventLog());
    }

    /**
     * The compact range of the entries among {@code events}, each leaf recomputed from the event and checked against its
     * seal; a record re-emitted by a redelivery (an event id seen before) counts once, as every reader takes it.
     */
    private CompactRange recomputed(List<EventEnvelope> events) {
        CompactRange range = CompactRange.empty();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (EventEnvelope event : events) {
            if (!seen.add(event.eventId())) {
                continue;
            }
            EvidenceSeal seal = event.seal();
            if (seal == null) {
                assertThat(EvidenceEntries.of(event, range.size(), new EvidenceEntries.PayloadDigests(null, null)))
                        .as("%s carries no seal: it is not an entry", event.event().getClass().getSimpleName()).isEmpty();
                continue;
            }
            assertThat(seal.sequence()).isEqualTo(range.size());
            Entry entry = EvidenceEntries.of(event, seal.sequence(),
                    new EvidenceEntries.PayloadDigests(seal.payloadSha256(), seal.payloadExcerptSha256())).orElseThrow();
            byte[] leaf = hasher.leaf(entry.encode());
            assertThat(seal.leafHash()).isEqualTo(Hashes.base64(leaf));
            assertThat(range.append(leaf, hasher).stream().map(Hashes::base64).toList()).isEqualTo(seal.nodes());
        }
        return range;
    }
}
