package io.agentgateway.evidence;

import java.io.ByteArrayOutputStream;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/** A workspace's log made in memory as the gateway makes it: audit rows and other entries, leaves, checkpoints. */
final class TestLog {
    static final String WORKSPACE = "8d1c5b4e-0000-4000-8000-000000000001";
    static final String ORIGIN = "gateway.test/audit/" + WORKSPACE;
    final NoteKeys.SignerKey key = NoteKeys.generate("gateway.test/audit", new SecureRandom());
    final MerkleHasher hasher = new MerkleHasher();
    final List<ExportedEntry> entries = new ArrayList<>();
    final List<String> checkpoints = new ArrayList<>();
    final Map<NodeId, byte[]> nodes = new java.util.HashMap<>();
    private final CompactRange range = CompactRange.empty();

    /** An evaluation's audit row with a small payload. */
    TestLog evaluation(String decision) {
        long sequence = range.size();
        String excerpt = "{\"n\":" + sequence + "}";
        Map<String, String> fields = auditFields(sequence);
        fields.put(EntryFields.DECISION, decision);
        fields.put(EntryFields.PAYLOAD_SHA256, Hashes.sha256Hex(excerpt));
        fields.put(EntryFields.PAYLOAD_EXCERPT_SHA256, Hashes.sha256Hex(excerpt));
        fields.put(EntryFields.PAYLOAD_TRUNCATED, "false");
        fields.put(EntryFields.PAYLOAD_BYTES, Integer.toString(excerpt.length()));
        return add(Entry.of(EntryKinds.ACTION_EVALUATED, fields), excerpt);
    }

    /** An entry of another kind: the erasure of an audit row's payload. */
    TestLog erasure(String auditLogId) {
        Map<String, String> fields = new TreeMap<>();
        fields.put(EntryFields.SEQUENCE, Long.toString(range.size()));
        fields.put(EntryFields.WORKSPACE_ID, WORKSPACE);
        fields.put(EntryFields.EVENT_ID, "e-" + range.size());
        fields.put(EntryFields.AUDIT_LOG_ID, auditLogId);
        fields.put(EntryFields.REASON, "privacy request");
        return add(Entry.of(EntryKinds.AUDIT_PAYLOAD_ERASED, fields), null);
    }

    TestLog evaluations(int count) {
        for (int i = 0; i < count; i++) {
            evaluation(i % 3 == 0 ? "block" : "allow");
        }
        return this;
    }

    TestLog checkpoint() {
        checkpoints.add(SignedNote.sign(new Checkpoint(ORIGIN, range.size(), range.root(hasher)).body(), key).encoded());
        return this;
    }

    long size() {
        return range.size();
    }

    String latestCheckpoint() {
        return checkpoints.get(checkpoints.size() - 1);
    }

    /** The complete export of every entry up to the latest checkpoint. */
    byte[] export() {
        return export(entries, checkpoints, List.of(key.verifier().text()), true, null);
    }

    byte[] export(List<ExportedEntry> lines, List<String> notes, List<String> keys, boolean complete,
                  EvidenceExport.Consistency consistency) {
        long treeSize = Checkpoint.parse(SignedNote.parse(notes.get(notes.size() - 1)).text()).size();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (EvidenceExport.Writer writer = new EvidenceExport.Writer(out)) {
            writer.header(new EvidenceExport.Header(WORKSPACE, ORIGIN, treeSize, complete, null, null, 0, Instant.now().toString()));
            keys.forEach(writer::key);
            notes.forEach(writer::checkpoint);
            if (consistency != null) {
                writer.consistency(consistency);
            }
            lines.stream().filter(e -> e.entry().sequence() < treeSize || e.entry().sequence() < 0).forEach(writer::entry);
            writer.end();
        }
        return out.toByteArray();
    }

    /** A partial export: the entries chosen, each with its inclusion proof against the latest checkpoint. */
    byte[] partialExport(List<Integer> sequences) {
        long treeSize = Checkpoint.parse(SignedNote.parse(latestCheckpoint()).text()).size();
        List<ExportedEntry> chosen = new ArrayList<>();
        for (int sequence : sequences) {
            ExportedEntry entry = entries.get(sequence);
            List<byte[]> proof = MerkleProofs.inclusionProof(sequence, treeSize, wanted -> {
                Map<NodeId, byte[]> found = new java.util.HashMap<>();
                wanted.forEach(id -> found.put(id, nodes.get(id)));
                return found;
            }, hasher);
            chosen.add(new ExportedEntry(entry.entry(), entry.sealedLeafHash(), entry.payloadExcerpt(), entry.payloadErased(), proof));
        }
        return export(chosen, List.of(latestCheckpoint()), List.of(key.verifier().text()), false, null);
    }

    /** The entries with the one at {@code sequence} replaced. */
    List<ExportedEntry> with(int sequence, UnaryOperator<ExportedEntry> change) {
        List<ExportedEntry> changed = new ArrayList<>(entries);
        changed.set(sequence, change.apply(entries.get(sequence)));
        return changed;
    }

    static ExportedEntry withField(ExportedEntry entry, String name, String value) {
        Map<String, String> fields = new TreeMap<>(entry.entry().fields());
        fields.put(name, value);
        return new ExportedEntry(new Entry(entry.entry().kind(), new TreeMap<>(fields)), entry.sealedLeafHash(),
                entry.payloadExcerpt(), entry.payloadErased(), entry.proof());
    }

    private TestLog add(Entry entry, String excerpt) {
        byte[] leaf = hasher.leaf(entry.encode());
        long index = range.size();
        nodes.put(new NodeId(0, index), leaf);
        List<byte[]> completed = range.append(leaf, hasher);
        List<NodeId> ids = NodeId.completedBy(index);
        for (int i = 0; i < ids.size(); i++) {
            nodes.put(ids.get(i), completed.get(i));
        }
        entries.add(new ExportedEntry(entry, leaf, excerpt, false, null));
        return this;
    }

    private static Map<String, String> auditFields(long sequence) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String name : EntryFields.AUDIT_ROW) {
            fields.put(name, null);
        }
        fields.put(EntryFields.ID, String.format("00000000-0000-4000-8000-%012d", sequence));
        fields.put(EntryFields.SEQUENCE, Long.toString(sequence));
        fields.put(EntryFields.WORKSPACE_ID, WORKSPACE);
        fields.put(EntryFields.EVENT_ID, String.format("10000000-0000-4000-8000-%012d", sequence));
        fields.put(EntryFields.COMMAND_ID, "cmd-" + sequence);
        fields.put(EntryFields.CORRELATION_ID, "corr-" + sequence);
        fields.put(EntryFields.OCCURRED_AT, EntryValues.instant(Instant.parse("2026-03-01T12:00:00Z").plusSeconds(sequence)));
        fields.put(EntryFields.TOOL, "code_host");
        fields.put(EntryFields.ACTION, "repos.merge");
        fields.put(EntryFields.RISK_LEVEL, "high");
        fields.put(EntryFields.RISK_OVERRIDDEN_BY_CALLER, "false");
        fields.put(EntryFields.UNDELIVERED, "false");
        fields.put(EntryFields.POLICY_SET_VERSION, "3");
        fields.put(EntryFields.WORKSPACE_VERSION, Long.toString(10 + sequence));
        return fields;
    }
}
