package io.agentgateway.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The offline verifier over exports of a log made in memory, untouched and tampered with every way it must catch. */
class EvidenceVerifierTest {

    private static VerificationReport verify(byte[] export, TestLog log) {
        return ExportVerifier.verify(new ByteArrayInputStream(export), EvidenceVerifier.Options.pinned(List.of(log.key.verifier())));
    }

    private static TestLog log() {
        return new TestLog().evaluations(40).checkpoint().evaluations(23).checkpoint();
    }

    @Test
    void anUntouchedCompleteExportVerifies() {
        TestLog log = log();
        VerificationReport report = verify(log.export(), log);
        assertThat(report.failures()).isEmpty();
        assertThat(report.ok()).isTrue();
        assertThat(report.entriesChecked()).isEqualTo(63);
        assertThat(report.complete()).isTrue();
        assertThat(report.computedRoot()).isEqualTo(report.rootHash());
        assertThat(report.payloadsChecked()).isEqualTo(63);
        assertThat(report.signature()).startsWith("Ed25519 by gateway.test/audit+");
        assertThat(report.render()).contains("entries checked: 63 (sequence 0 to 62", "result: OK");
    }

    @Test
    void aChangedFieldIsFoundAtItsSequence() {
        TestLog log = log();
        byte[] export = log.export(log.with(18, e -> TestLog.withField(e, EntryFields.DECISION, "allow")), log.checkpoints,
                List.of(log.key.verifier().text()), true, null);
        VerificationReport report = verify(export, log);
        assertThat(report.ok()).isFalse();
        assertThat(report.firstBadSequence()).hasValue(18);
        assertThat(report.render()).contains("first bad sequence: 18", "result: FAILED");
    }

    @Test
    void aFieldChangedWithItsSealedLeafIsFoundByTheCheckpointItBreaks() {
        TestLog log = log();
        byte[] export = log.export(log.with(51, e -> {
            ExportedEntry changed = TestLog.withField(e, EntryFields.DECISION, "require_approval");
            return new ExportedEntry(changed.entry(), changed.entry().leafHash(new MerkleHasher()), changed.payloadExcerpt(),
                    false, null);
        }), log.checkpoints, List.of(log.key.verifier().text()), true, null);
        VerificationReport report = verify(export, log);
        // the first checkpoint (40) still matches; the one of size 63 does not: the bad entry is from 40 on
        assertThat(report.firstBadSequence()).hasValue(40);
    }

    @Test
    void aChangedPayloadIsFound() {
        TestLog log = log();
        byte[] export = log.export(log.with(5, e -> new ExportedEntry(e.entry(), e.sealedLeafHash(), "{\"n\":999}", false, null)),
                log.checkpoints, List.of(log.key.verifier().text()), true, null);
        assertThat(verify(export, log).firstBadSequence()).hasValue(5);
    }

    @Test
    void aDeletedEntryIsFound() {
        TestLog log = log();
        List<ExportedEntry> entries = new ArrayList<>(log.entries);
        entries.remove(30);
        VerificationReport report = verify(log.export(entries, log.checkpoints, List.of(log.key.verifier().text()), true, null), log);
        assertThat(report.firstBadSequence()).hasValue(30);
        assertThat(report.failures().get(0).message()).contains("entry missing");
    }

    @Test
    void swappedEntriesAreFound() {
        TestLog log = log();
        List<ExportedEntry> entries = new ArrayList<>(log.entries);
        // the rows' contents swapped, each keeping its place in the sequence
        ExportedEntry a = entries.get(10);
        ExportedEntry b = entries.get(12);
        entries.set(10, TestLog.withField(b, EntryFields.SEQUENCE, "10"));
        entries.set(12, TestLog.withField(a, EntryFields.SEQUENCE, "12"));
        assertThat(verify(log.export(entries, log.checkpoints, List.of(log.key.verifier().text()), true, null), log)
                .firstBadSequence()).hasValue(10);
    }

    @Test
    void aTruncatedTailIsFoundAgainstTheCheckpointAndAgainstOneSeenBefore() {
        TestLog log = log();
        List<ExportedEntry> kept = log.entries.subList(0, 55);
        VerificationReport report = verify(log.export(kept, log.checkpoints, List.of(log.key.verifier().text()), true, null), log);
        assertThat(report.firstBadSequence()).hasValue(55);
        assertThat(report.render()).contains("tail from sequence 55 is missing");

        // the checkpoints that cover the tail removed as well: the auditor's earlier checkpoint still shows it
        List<ExportedEntry> first40 = log.entries.subList(0, 40);
        byte[] rolledBack = log.export(first40, log.checkpoints.subList(0, 1), List.of(log.key.verifier().text()), true, null);
        assertThat(verify(rolledBack, log).ok()).isTrue();
        VerificationReport seen = ExportVerifier.verify(new ByteArrayInputStream(rolledBack),
                new EvidenceVerifier.Options(List.of(log.key.verifier()), log.latestCheckpoint(), false));
        assertThat(seen.ok()).isFalse();
        assertThat(seen.firstBadSequence()).hasValue(40);
        assertThat(seen.consistency()).contains("INCONSISTENT");
    }

    @Test
    void anEntryOfAnotherWorkspaceIsFound() {
        TestLog log = log();
        byte[] export = log.export(log.with(8, e -> TestLog.withField(e, EntryFields.WORKSPACE_ID, "8d1c5b4e-0000-4000-8000-000000000002")),
                log.checkpoints, List.of(log.key.verifier().text()), true, null);
        VerificationReport report = verify(export, log);
        assertThat(report.firstBadSequence()).hasValue(8);
        assertThat(report.render()).contains("of workspace 8d1c5b4e-0000-4000-8000-000000000002");
    }

    @Test
    void aCheckpointResignedWithAnotherKeyIsRefused() {
        TestLog log = log();
        NoteKeys.SignerKey other = NoteKeys.generate("gateway.test/audit", new SecureRandom());
        String resigned = SignedNote.sign(SignedNote.parse(log.latestCheckpoint()).text(), other).encoded();
        byte[] export = log.export(log.entries, List.of(log.checkpoints.get(0), resigned),
                List.of(log.key.verifier().text(), other.verifier().text()), true, null);
        VerificationReport report = verify(export, log);
        assertThat(report.ok()).isFalse();
        assertThat(report.signature()).startsWith("NOT TRUSTED");
        // trusting the export's own keys instead would accept it: the report says the keys were not pinned
        VerificationReport unpinned = ExportVerifier.verify(new ByteArrayInputStream(export),
                new EvidenceVerifier.Options(List.of(), null, false));
        assertThat(unpinned.keysPinned()).isFalse();
        assertThat(unpinned.render()).contains("pin them with --key");
    }

    @Test
    void aForkIsFound() {
        TestLog log = log();
        // the same size, another history: the log signed two trees of 63 entries
        TestLog other = new TestLog();
        byte[] forkRoot = new MerkleHasher().leaf("another history".getBytes());
        String fork = SignedNote.sign(new Checkpoint(TestLog.ORIGIN, 63, forkRoot).body(), log.key).encoded();
        List<String> notes = new ArrayList<>(log.checkpoints);
        notes.add(fork);
        VerificationReport inExport = verify(log.export(log.entries, notes, List.of(log.key.verifier().text()), true, null), log);
        assertThat(inExport.ok()).isFalse();
        assertThat(inExport.render()).contains("forked log: two checkpoints of size 63");

        VerificationReport seenBefore = ExportVerifier.verify(new ByteArrayInputStream(log.export()),
                new EvidenceVerifier.Options(List.of(log.key.verifier()), fork, false));
        assertThat(seenBefore.ok()).isFalse();
        assertThat(seenBefore.consistency()).contains("FORK");
        assertThat(other.size()).isZero();
    }

    @Test
    void anEarlierCheckpointIsConsistentWithTheLog() {
        TestLog log = log();
        VerificationReport report = ExportVerifier.verify(new ByteArrayInputStream(log.export()),
                new EvidenceVerifier.Options(List.of(log.key.verifier()), log.checkpoints.get(0), false));
        assertThat(report.failures()).isEmpty();
        assertThat(report.consistency()).isEqualTo("size 40: consistent (its root recomputed from the entries)");
    }

    @Test
    void anErasedPayloadVerifiesWhenItsErasureIsSealedAndNotOtherwise() {
        TestLog log = new TestLog().evaluations(10);
        String erasedId = log.entries.get(4).entry().field(EntryFields.ID);
        log.erasure(erasedId).checkpoint();
        List<ExportedEntry> erased = log.with(4, e -> new ExportedEntry(e.entry(), e.sealedLeafHash(), null, true, null));
        VerificationReport report = verify(log.export(erased, log.checkpoints, List.of(log.key.verifier().text()), true, null), log);
        assertThat(report.failures()).isEmpty();
        assertThat(report.payloadsErased()).isEqualTo(1);

        List<ExportedEntry> gone = new ArrayList<>(erased);
        gone.set(6, new ExportedEntry(gone.get(6).entry(), gone.get(6).sealedLeafHash(), null, true, null));
        assertThat(verify(log.export(gone, log.checkpoints, List.of(log.key.verifier().text()), true, null), log)
                .firstBadSequence()).hasValue(6);
        List<ExportedEntry> deleted = new ArrayList<>(erased);
        deleted.set(7, new ExportedEntry(deleted.get(7).entry(), deleted.get(7).sealedLeafHash(), null, false, null));
        assertThat(verify(log.export(deleted, log.checkpoints, List.of(log.key.verifier().text()), true, null), log)
                .firstBadSequence()).hasValue(7);
    }

    @Test
    void aPartialExportIsCheckedByItsProofs() {
        TestLog log = log();
        VerificationReport report = verify(log.partialExport(List.of(3, 41, 62)), log);
        assertThat(report.failures()).isEmpty();
        assertThat(report.proofsChecked()).isEqualTo(3);
        assertThat(report.complete()).isFalse();

        byte[] tampered = new String(log.partialExport(List.of(3, 41, 62)), java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"decision\":\"block\"", "\"decision\":\"allow\"").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        VerificationReport caught = verify(tampered, log);
        assertThat(caught.firstBadSequence()).hasValue(3);
    }

    @Test
    void aCutExportOrAnotherFileIsRefused() {
        TestLog log = log();
        byte[] export = log.export();
        byte[] cut = Arrays.copyOf(export, new String(export, java.nio.charset.StandardCharsets.ISO_8859_1).lastIndexOf("{\"type\":\"end\""));
        VerificationReport report = verify(cut, log);
        assertThat(report.render()).contains("cut short");
        assertThatThrownBy(() -> verify("{\"type\":\"entry\"}\n".getBytes(), log))
                .isInstanceOf(EvidenceExport.MalformedExportException.class);
        assertThatThrownBy(() -> verify("id,decision\n".getBytes(), log))
                .isInstanceOf(EvidenceExport.MalformedExportException.class);
    }
}
