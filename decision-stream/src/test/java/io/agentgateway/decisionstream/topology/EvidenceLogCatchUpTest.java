package io.agentgateway.decisionstream.topology;

import static io.agentgateway.decisionstream.topology.TestWorkspace.action;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.evidence.EvidenceLog;
import io.agentgateway.decisioncore.evidence.EvidenceSettings;
import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code evidence-log} store is written back at commits, and each decision's {@code processed-commands} record
 * carries the log as its seals left it. Under at-least-once a crash can lose the store's last writes while those
 * records survive; the task starts anew, the commands after the last committed offset come again, and the log must
 * catch up with each before anything new is sealed: no sequence number given twice, none skipped.
 *
 * <p>The crash is rebuilt with two drivers: the first decides everything; the second, the restarted task, decides the
 * same commands up to the last commit (sealing is deterministic), and then holds the first's records of the decisions
 * after it without the store's writes of them.
 */
class EvidenceLogCatchUpTest {
    private static final NoteKeys.SignerKey KEY = NoteKeys.generate("gateway.test/audit", new SecureRandom());
    @TempDir
    Path firstDir;
    @TempDir
    Path restartedDir;
    private final List<DecisionDriver> drivers = new ArrayList<>();

    @AfterEach
    void close() {
        drivers.forEach(DecisionDriver::close);
    }

    @Test
    void aLogThatLostItsLastWritesCatchesUpWithTheRedeliveredDecisionsBeforeSealingANewOne() {
        DecisionDriver first = driver(firstDir);
        TestWorkspace workspace = TestWorkspace.create(first);
        List<CommandEnvelope> committed = new ArrayList<>(workspace.sent());
        CommandEnvelope lastCommitted = evaluation(workspace);
        committed.add(lastCommitted);
        long committedSequence = first.send(lastCommitted).events().get(0).seal().sequence();
        // three decisions after the last commit
        List<CommandEnvelope> uncommitted = List.of(evaluation(workspace), evaluation(workspace), evaluation(workspace));
        List<Long> sequences = uncommitted.stream().map(c -> first.send(c).events().get(0).seal().sequence()).toList();
        assertThat(sequences).containsExactly(committedSequence + 1, committedSequence + 2, committedSequence + 3);

        // the restarted task: the state as of the last commit, plus the records of the three decisions, which survived
        // the crash while the store's writes of them (in the record cache) did not
        DecisionDriver restarted = driver(restartedDir);
        committed.forEach(restarted::send);
        KeyValueStore<String, byte[]> logs = restarted.keyValueStore(DecisionTopology.EVIDENCE_LOG_STORE);
        assertThat(EvidenceLog.decode(logs.get(workspace.id)).size()).isEqualTo(committedSequence + 1);
        for (CommandEnvelope command : uncommitted) {
            long filedAt = command.acceptedAt().toEpochMilli();
            restarted.processedCommands().put(command.commandId(),
                    first.processedCommands().fetch(command.commandId(), filedAt), filedAt);
        }

        // the commands since the committed offset come again, in order, and are emitted as first decided
        for (int i = 0; i < uncommitted.size(); i++) {
            assertThat(restarted.send(uncommitted.get(i)).events().get(0).seal().sequence()).isEqualTo(sequences.get(i));
        }
        assertThat(EvidenceLog.decode(logs.get(workspace.id)).size()).isEqualTo(committedSequence + 4);
        // the next decision is sealed after them, not in the place of one of them
        assertThat(restarted.send(evaluation(workspace)).events().get(0).seal().sequence()).isEqualTo(committedSequence + 4);
        // an older decision emitted again moves nothing back
        restarted.send(uncommitted.get(0));
        assertThat(EvidenceLog.decode(logs.get(workspace.id)).size()).isEqualTo(committedSequence + 5);
    }

    @Test
    void everyDecisionsRecordCarriesTheLogAsItsSealsLeftIt() {
        DecisionDriver driver = driver(firstDir);
        TestWorkspace workspace = TestWorkspace.create(driver);
        CommandEnvelope evaluation = evaluation(workspace);
        driver.send(evaluation);
        StoredOutcome stored = driver.processedCommands().fetch(evaluation.commandId(), evaluation.acceptedAt().toEpochMilli());
        assertThat(stored.evidenceLog()).isNotNull();
        assertThat(stored.evidenceLogBytes())
                .isEqualTo(driver.<byte[]>keyValueStore(DecisionTopology.EVIDENCE_LOG_STORE).get(workspace.id));
    }

    private DecisionDriver driver(Path stateDir) {
        DecisionDriver driver = new DecisionDriver(DecisionSettings.defaults(), stateDir,
                EvidenceSettings.of(Optional.of(KEY)).withCheckpoints(1000, Duration.ofSeconds(10)), TestWorkspace.START);
        drivers.add(driver);
        return driver;
    }

    private static CommandEnvelope evaluation(TestWorkspace workspace) {
        return workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                action(Tool.CODE_HOST, "repos.list", RiskLevel.LOW).build());
    }
}
