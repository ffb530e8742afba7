package io.agentgateway.evidence;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The verification algorithm, fed one part at a time (in the export's order: header, keys, checkpoints, consistency
 * proof, entries by sequence, end), so that a multi-gigabyte export or a live read model is checked in constant
 * memory. The offline verifier ({@link ExportVerifier}) feeds it an export file; the gateway's live check feeds it the
 * rows PostgreSQL holds. Both get the same {@link VerificationReport}.
 *
 * <ol>
 *   <li>Every checkpoint: the origin is the log's; a signature by a trusted key verifies (unsigned only when allowed);
 *       two checkpoints of one size with different roots are a fork.</li>
 *   <li>Every entry: its leaf is recomputed from its fields ({@link EntryEncoding}); it is of the workspace; it equals
 *       the leaf sealed for it; its stored payload excerpt has the sealed digest (an erased payload is accepted when an
 *       erasure entry seals it); in a partial export its inclusion proof leads to the head checkpoint's root.</li>
 *   <li>A complete run (every sequence from 0): the sequence numbers have no gap; at every checkpoint's size the
 *       recomputed root equals the checkpoint's; the entries reach the head checkpoint's size (else the tail was
 *       cut).</li>
 *   <li>A checkpoint seen before (the caller's): signed, of the same origin, not larger than the head (else the log
 *       was truncated or rolled back), and consistent with it (the recomputed root at its size, or a consistency
 *       proof in a partial export).</li>
 * </ol>
 */
public final class EvidenceVerifier {
    private final Options options;
    private final MerkleHasher hasher = new MerkleHasher();
    private final List<VerificationReport.Failure> failures = new ArrayList<>();
    private final List<NoteKeys.VerifierKey> exportKeys = new ArrayList<>();
    private final TreeMap<Long, Checkpoint> checkpoints = new TreeMap<>();
    private final Map<String, Long> erasedAwaitingSeal = new HashMap<>();
    private final Set<String> erasuresSealed = new HashSet<>();
    private EvidenceExport.Header header;
    private List<NoteKeys.VerifierKey> trusted;
    private Checkpoint head;
    private String signature = "none";
    private int checkpointsChecked;
    private EvidenceExport.Consistency consistencyProof;
    private Checkpoint previous;
    private byte[] previousRootComputed;
    private final CompactRange range = CompactRange.empty();
    private boolean broken;
    private long lastMatchedCheckpoint;
    private long lastSequence = -1;
    private long firstSequence = -1;
    private long entries;
    private long payloadsChecked;
    private long payloadsErased;
    private long proofsChecked;
    private long pendingEntries;
    private byte[] computedRoot;
    private boolean ended;
    private Long endCount;

    /**
     * @param trustedKeys        the keys a checkpoint must be signed by; empty: the export's own (reported as not pinned)
     * @param previousCheckpoint a checkpoint seen before (its note text), or null
     * @param allowUnsigned      accept unsigned checkpoints (a gateway without a signing key), saying so
     */
    public record Options(List<NoteKeys.VerifierKey> trustedKeys, String previousCheckpoint, boolean allowUnsigned) {
        public Options {
            trustedKeys = List.copyOf(trustedKeys);
        }

        public static Options pinned(List<NoteKeys.VerifierKey> keys) {
            return new Options(keys, null, false);
        }
    }

    public EvidenceVerifier(Options options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    public void header(EvidenceExport.Header header) {
        if (this.header != null) {
            throw new IllegalStateException("a second header");
        }
        this.header = header;
        if (header.treeSize() == 0) {
            // an empty log: its root is the empty tree's, and every entry there is waits for its first checkpoint
            head = new Checkpoint(header.origin(), 0, MerkleHasher.emptyRoot());
        }
        if (options.previousCheckpoint() != null) {
            try {
                SignedNote note = SignedNote.parse(options.previousCheckpoint());
                previous = Checkpoint.parse(note.text());
                checkSignature(note, previous, "the previous checkpoint");
                if (!previous.origin().equals(header.origin())) {
                    fail(null, "the previous checkpoint is of another log (origin " + previous.origin() + ")");
                }
                if (previous.size() == 0) {
                    previousRootComputed = MerkleHasher.emptyRoot();
                }
            } catch (IllegalArgumentException e) {
                fail(null, "the previous checkpoint cannot be read: " + e.getMessage());
            }
        }
    }

    public void key(String vkey) {
        requireHeader();
        try {
            exportKeys.add(NoteKeys.parseVerifier(vkey));
        } catch (IllegalArgumentException e) {
            fail(null, "a public key of the export cannot be read: " + e.getMessage());
        }
    }

    public void checkpoint(String noteText) {
        requireHeader();
        checkpointsChecked++;
        SignedNote note;
        Checkpoint checkpoint;
        try {
            note = SignedNote.parse(noteText);
            checkpoint = Checkpoint.parse(note.text());
        } catch (IllegalArgumentException e) {
            fail(null, "a checkpoint cannot be read: " + e.getMessage());
            return;
        }
        if (!checkpoint.origin().equals(header.origin())) {
            fail(null, "the checkpoint of size " + checkpoint.size() + " is of another log (origin " + checkpoint.origin() + ")");
            return;
        }
        String signedBy = checkSignature(note, checkpoint, "the checkpoint of size " + checkpoint.size());
        Checkpoint seen = checkpoints.get(checkpoint.size());
        if (seen != null) {
            if (!seen.sameRoot(checkpoint)) {
                fail(null, "forked log: two checkpoints of size " + checkpoint.size() + " with different roots ("
                        + Hashes.base64(seen.rootHash()) + " and " + Hashes.base64(checkpoint.rootHash()) + ")");
            }
            return;
        }
        checkpoints.put(checkpoint.size(), checkpoint);
        if (checkpoint.size() == header.treeSize()) {
            head = checkpoint;
            signature = signedBy;
        }
    }

    public void consistency(EvidenceExport.Consistency consistency) {
        requireHeader();
        consistencyProof = consistency;
    }

    public void entry(ExportedEntry exported) {
        requireHeader();
        Entry entry = exported.entry();
        long sequence = entry.sequence();
        entries++;
        if (sequence < 0) {
            fail(lastSequence + 1, "an entry without a sequence number");
            return;
        }
        if (firstSequence < 0) {
            firstSequence = sequence;
        }
        if (sequence <= lastSequence) {
            fail(sequence, "sequence " + sequence + " (" + entry.kind() + " " + describe(entry) + ") comes again or out of"
                    + " order (after " + lastSequence + ")");
            return;
        }
        if (header.complete() && sequence != lastSequence + 1 && !broken) {
            fail(lastSequence + 1, "entry missing: sequence " + (lastSequence + 1)
                    + (sequence == lastSequence + 2 ? "" : " to " + (sequence - 1)) + " absent");
            broken = true;
        }
        lastSequence = sequence;
        if (!header.workspaceId().equals(entry.workspaceId())) {
            fail(sequence, "the entry (" + entry.kind() + " " + describe(entry) + ") is of workspace " + entry.workspaceId()
                    + ", not of this log's");
        }
        byte[] leaf = hasher.leaf(entry.encode());
        if (exported.sealedLeafHash() != null && !Hashes.equal(leaf, exported.sealedLeafHash())) {
            fail(sequence, "the entry (" + entry.kind() + " " + describe(entry) + ") does not give the leaf sealed for it:"
                    + " a field was changed");
        }
        checkPayload(sequence, exported);
        if (EntryKinds.AUDIT_PAYLOAD_ERASED.equals(entry.kind()) && entry.field(EntryFields.AUDIT_LOG_ID) != null) {
            erasuresSealed.add(entry.field(EntryFields.AUDIT_LOG_ID));
        }
        if (head != null && sequence >= head.size()) {
            pendingEntries++;
        }
        if (exported.proof() != null && head != null && sequence < head.size()) {
            proofsChecked++;
            if (!MerkleProofs.verifyInclusion(sequence, head.size(), leaf, exported.proof(), head.rootHash(), hasher)) {
                fail(sequence, "its inclusion proof does not lead to the checkpoint's root: the entry or the log changed");
            }
        }
        if (header.complete() && !broken) {
            range.append(leaf, hasher);
            afterAppend();
        }
    }

    /**
     * A problem the caller found itself (the live check: an entry whose audit row is gone, a row that is not the log's),
     * reported with the others; {@code sequence} null when it concerns no entry.
     */
    public void problem(Long sequence, String message) {
        fail(sequence, message);
    }

    /** The export's last line: how many entries it says it holds. */
    public void end(long count) {
        ended = true;
        endCount = count;
    }

    public VerificationReport finish() {
        requireHeader();
        if (!ended) {
            fail(null, "the export is cut short: it has no end line");
        } else if (endCount != null && endCount != entries) {
            fail(null, "the export says it holds " + endCount + " entries, not the " + entries + " read");
        }
        long treeSize = header.treeSize();
        if (head == null && treeSize > 0) {
            fail(null, "the checkpoint of size " + treeSize + " the export names is missing");
        }
        if (treeSize == 0) {
            computedRoot = MerkleHasher.emptyRoot();
        }
        if (header.complete() && !broken && range.size() < treeSize) {
            fail(range.size(), "the checkpoint covers " + treeSize + " entries but only " + range.size()
                    + " are there: the log's tail from sequence " + range.size() + " is missing");
        }
        erasedAwaitingSeal.forEach((auditLogId, sequence) -> {
            if (!erasuresSealed.contains(auditLogId)) {
                fail(sequence, "the payload is gone but no erasure entry seals its erasure");
            }
        });
        String consistency = previous == null ? null : checkPrevious();
        return new VerificationReport(header.workspaceId(), header.origin(), entries, firstSequence, lastSequence,
                header.complete() && !broken && range.size() >= treeSize, treeSize,
                head == null ? null : Hashes.base64(head.rootHash()),
                computedRoot == null ? null : Hashes.base64(computedRoot), signature,
                !options.trustedKeys().isEmpty(), checkpointsChecked, consistency, payloadsChecked, payloadsErased,
                proofsChecked, Math.max(pendingEntries, header.pendingEntries()), failures);
    }

    private void afterAppend() {
        long size = range.size();
        if (previous != null && previous.size() == size) {
            previousRootComputed = range.root(hasher);
        }
        Checkpoint checkpoint = checkpoints.get(size);
        if (checkpoint == null) {
            return;
        }
        byte[] root = range.root(hasher);
        if (size == header.treeSize()) {
            computedRoot = root;
        }
        if (Hashes.equal(root, checkpoint.rootHash())) {
            lastMatchedCheckpoint = size;
            return;
        }
        long from = lastMatchedCheckpoint;
        boolean located = failures.stream().anyMatch(f -> f.sequence() != null && f.sequence() >= from && f.sequence() < size);
        if (located) {
            fail(null, "the root of the first " + size + " entries does not match the checkpoint of that size");
        } else {
            fail(from, "the root of the first " + size + " entries does not match the checkpoint of that size: an entry from "
                    + from + " to " + (size - 1) + " was changed together with its sealed leaf");
        }
        // later checkpoints are compared too: each mismatch is reported, the first bad sequence stays the lowest
        lastMatchedCheckpoint = size;
    }

    private void checkPayload(long sequence, ExportedEntry exported) {
        Entry entry = exported.entry();
        if (!EntryKinds.isAuditRow(entry.kind())) {
            return;
        }
        String excerptDigest = entry.field(EntryFields.PAYLOAD_EXCERPT_SHA256);
        String excerpt = exported.payloadExcerpt();
        if (excerpt != null) {
            payloadsChecked++;
            String digest = Hashes.sha256Hex(excerpt);
            if (!digest.equals(excerptDigest)) {
                fail(sequence, "the stored payload does not have the digest sealed for it: the payload was changed");
            } else if ("false".equals(entry.field(EntryFields.PAYLOAD_TRUNCATED)) && entry.field(EntryFields.PAYLOAD_SHA256) != null
                    && !digest.equals(entry.field(EntryFields.PAYLOAD_SHA256))) {
                fail(sequence, "the whole payload's digest is not the stored payload's, though it was not cut");
            }
            return;
        }
        if (excerptDigest == null) {
            return; // nothing was stored (a kill-switch call, a refused command)
        }
        payloadsErased++;
        if (!exported.payloadErased()) {
            fail(sequence, "the payload is missing, and the row does not say it was erased");
        } else if (header.complete()) {
            erasedAwaitingSeal.put(entry.field(EntryFields.ID), sequence);
        }
    }

    private String checkPrevious() {
        Checkpoint head = this.head;
        if (head == null) {
            return "not checked: no checkpoint to compare it with";
        }
        if (previous.size() > head.size()) {
            fail(head.size(), "the log is shorter than a checkpoint seen before (size " + previous.size() + " > "
                    + head.size() + "): entries from sequence " + head.size() + " were removed or the log rolled back");
            return "size " + previous.size() + ": INCONSISTENT (larger than the log now)";
        }
        if (previous.size() == head.size()) {
            if (!previous.sameRoot(head)) {
                fail(null, "forked log: the checkpoint seen before and the export's, both of size " + head.size()
                        + ", have different roots");
                return "size " + previous.size() + ": FORK (same size, another root)";
            }
            return "size " + previous.size() + ": the same checkpoint";
        }
        if (previousRootComputed != null) {
            if (!Hashes.equal(previousRootComputed, previous.rootHash())) {
                fail(null, "forked log: the entries do not give the root of the checkpoint of size " + previous.size()
                        + " seen before: the log was rewritten");
                return "size " + previous.size() + ": INCONSISTENT (the entries give another root at that size)";
            }
            return "size " + previous.size() + ": consistent (its root recomputed from the entries)";
        }
        if (consistencyProof != null && consistencyProof.fromSize() == previous.size()) {
            boolean consistent = previous.size() == 0 || MerkleProofs.verifyConsistency(previous.size(), head.size(),
                    consistencyProof.proof(), previous.rootHash(), head.rootHash(), hasher);
            if (!consistent) {
                fail(null, "forked log: the consistency proof from the checkpoint of size " + previous.size()
                        + " seen before does not verify");
                return "size " + previous.size() + ": INCONSISTENT (the consistency proof fails)";
            }
            return "size " + previous.size() + ": consistent (consistency proof verified)";
        }
        fail(null, "consistency with the checkpoint of size " + previous.size() + " seen before cannot be checked: the"
                + " export holds neither every entry nor a consistency proof from that size (export with --consistency-from "
                + previous.size() + ")");
        return "size " + previous.size() + ": not checked";
    }

    private String checkSignature(SignedNote note, Checkpoint checkpoint, String what) {
        if (!note.signed()) {
            if (options.allowUnsigned()) {
                return "UNSIGNED (allowed by --allow-unsigned: the root is the log's own claim)";
            }
            fail(null, what + " is not signed (the gateway has no signing key; --allow-unsigned accepts that)");
            return "UNSIGNED";
        }
        SignedNote.Verified verified = note.verify(trustedKeys());
        if (!verified.ok()) {
            fail(null, what + " is not trusted: " + verified.problem());
            return "NOT TRUSTED: " + verified.problem();
        }
        NoteKeys.VerifierKey key = verified.by().orElseThrow();
        return "Ed25519 by " + key.name() + "+" + key.keyIdHex() + " (verified)";
    }

    private List<NoteKeys.VerifierKey> trustedKeys() {
        if (trusted == null) {
            trusted = options.trustedKeys().isEmpty() ? List.copyOf(exportKeys) : options.trustedKeys();
        }
        return trusted;
    }

    private static String describe(Entry entry) {
        String id = entry.field(EntryFields.ID) != null ? entry.field(EntryFields.ID) : entry.field(EntryFields.EVENT_ID);
        return id == null ? "" : id;
    }

    private void requireHeader() {
        if (header == null) {
            throw new IllegalStateException("the header comes first");
        }
    }

    private void fail(Long sequence, String message) {
        failures.add(new VerificationReport.Failure(sequence, message));
    }
}
