package io.agentgateway.benchmark.data;

import io.agentgateway.evidence.Checkpoint;
import io.agentgateway.evidence.CompactRange;
import io.agentgateway.evidence.Entry;
import io.agentgateway.evidence.EntryFields;
import io.agentgateway.evidence.EntryKinds;
import io.agentgateway.evidence.EntryValues;
import io.agentgateway.evidence.Hashes;
import io.agentgateway.evidence.MerkleHasher;
import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.evidence.SignedNote;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A workspace's Merkle log made as the decision stream makes it, without the stream: audit entries of evaluations
 * (every field of an audit row, a ~150-byte payload excerpt and its digests), their leaves appended to a compact range,
 * and a checkpoint signed every {@code checkpointEvery} entries. What the verifier and proof benchmarks read.
 */
public final class SyntheticEvidenceLog {
    static final Instant START = Instant.parse("2031-06-01T00:00:00Z");

    private final UUID workspaceId;
    private final NoteKeys.SignerKey key;
    private final int checkpointEvery;
    private final MerkleHasher hasher = new MerkleHasher();
    private final CompactRange range = CompactRange.empty();

    /** One generated entry: its fields, its stored excerpt, its leaf, the nodes it completed, and a checkpoint when due. */
    public record Generated(Entry entry, String excerpt, byte[] leaf, List<byte[]> completed, String checkpoint) {}

    public SyntheticEvidenceLog(UUID workspaceId, NoteKeys.SignerKey key, int checkpointEvery) {
        this.workspaceId = workspaceId;
        this.key = key;
        this.checkpointEvery = checkpointEvery;
    }

    public String origin() {
        return key.name() + "/" + workspaceId;
    }

    long size() {
        return range.size();
    }

    public Generated next() {
        long i = range.size();
        String excerpt = "{\"channel\":\"#ops\",\"n\":" + i + ",\"text\":\"message " + i
                + ", with \\\"quotes\\\" and commas\",\"tags\":[\"a\",\"b\"],\"pad\":\"" + "x".repeat(60) + "\"}";
        String digest = Hashes.sha256Hex(excerpt);
        Map<String, String> fields = new HashMap<>(64);
        for (String name : EntryFields.AUDIT_ROW) {
            fields.put(name, null);
        }
        fields.put(EntryFields.ID, uuid(i, 1));
        fields.put(EntryFields.SEQUENCE, Long.toString(i));
        fields.put(EntryFields.WORKSPACE_ID, workspaceId.toString());
        fields.put(EntryFields.EVENT_ID, uuid(i, 2));
        fields.put(EntryFields.COMMAND_ID, uuid(i, 3));
        fields.put(EntryFields.CORRELATION_ID, uuid(i, 4));
        fields.put(EntryFields.OCCURRED_AT, EntryValues.instant(START.plusMillis(i)));
        fields.put(EntryFields.TOOL, TOOLS[(int) (i % TOOLS.length)]);
        fields.put(EntryFields.ACTION, "resource.update");
        fields.put(EntryFields.RISK_LEVEL, RISKS[(int) (i % RISKS.length)]);
        fields.put(EntryFields.SUPPLIED_RISK_LEVEL, "low");
        fields.put(EntryFields.RISK_CLASSIFICATION, "caller_supplied");
        fields.put(EntryFields.RISK_OVERRIDDEN_BY_CALLER, "false");
        fields.put(EntryFields.DECISION, DECISIONS[(int) (i % DECISIONS.length)]);
        fields.put(EntryFields.REASON, "Matched policy \"bench " + (i % 7) + "\"");
        fields.put(EntryFields.MATCHED_POLICY_ID, uuid(i % 7, 5));
        fields.put(EntryFields.MATCHED_POLICY_NAME, "bench " + (i % 7));
        fields.put(EntryFields.AGENT_ID, "agent-" + (i % 50));
        fields.put(EntryFields.AGENT_NAME, "Bench Agent " + (i % 50));
        fields.put(EntryFields.REQUESTED_BY, "someone@example.com");
        fields.put(EntryFields.SOURCE, "evaluate");
        fields.put(EntryFields.PAYLOAD_TRUNCATED, "false");
        fields.put(EntryFields.PAYLOAD_BYTES, Integer.toString(excerpt.length()));
        fields.put(EntryFields.PAYLOAD_SHA256, digest);
        fields.put(EntryFields.PAYLOAD_EXCERPT_SHA256, digest);
        fields.put(EntryFields.POLICY_SET_VERSION, Long.toString(1 + i / 100_000));
        fields.put(EntryFields.WORKSPACE_VERSION, Long.toString(3 + i / 50_000));
        fields.put(EntryFields.UNDELIVERED, "false");
        Entry entry = Entry.of(EntryKinds.ACTION_EVALUATED, fields);
        byte[] leaf = hasher.leaf(entry.encode());
        List<byte[]> completed = range.append(leaf, hasher);
        String checkpoint = range.size() % checkpointEvery == 0 ? checkpoint() : null;
        return new Generated(entry, excerpt, leaf, completed, checkpoint);
    }

    /** The signed checkpoint of the log as it stands. */
    public String checkpoint() {
        return SignedNote.sign(new Checkpoint(origin(), range.size(), range.root(hasher)).body(), key).encoded();
    }

    public static String uuid(long i, int kind) {
        return new UUID(0x5eed_0000_0000_4000L | kind, 0x8000_0000_0000_0000L | i).toString();
    }

    private static final String[] TOOLS = {"code_host", "issue_tracker", "chat", "docs", "internal_api", "mcp"};
    private static final String[] RISKS = {"low", "medium", "high", "critical"};
    private static final String[] DECISIONS = {"allow", "allow", "block", "require_approval"};
}
