package io.agentgateway.adminapi.evidence;

import io.agentgateway.evidence.EvidenceExport;
import io.agentgateway.evidence.ExportedEntry;
import io.agentgateway.evidence.MerkleHasher;
import io.agentgateway.evidence.MerkleProofs;
import io.agentgateway.evidence.NoteKeys;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Writes a workspace's evidence export ({@link EvidenceExport}, format {@value EvidenceExport#FORMAT}) from the read
 * model, in one snapshot and constant memory: the latest checkpoint and those before it, the public keys, and the
 * entries it covers. Without a time range every entry from 0 (a complete export: the verifier recomputes the root);
 * with one, the entries from the first to the last audit row of the range, each with its inclusion proof. Used by the
 * admin API and the launcher's {@code export --evidence}, so both write the same bytes.
 */
public final class EvidenceExporter {
    private EvidenceExporter() {}

    /**
     * @param from            inclusive, with {@code to}: a partial export of that time range; both null: complete
     * @param consistencyFrom a tree size to add a consistency proof from (an auditor's earlier checkpoint), or null
     */
    public record Request(UUID workspaceId, Instant from, Instant to, Long consistencyFrom) {
        public Request {
            if ((from == null) != (to == null)) {
                throw new IllegalArgumentException("from and to go together");
            }
            if (from != null && !from.isBefore(to)) {
                throw new IllegalArgumentException("from must be before to");
            }
            if (consistencyFrom != null && consistencyFrom < 0) {
                throw new IllegalArgumentException("consistencyFrom must not be negative");
            }
        }

        public boolean complete() {
            return from == null;
        }
    }

    /** What was written. */
    public record Written(long entries, long treeSize) {}

    public static Written write(Connection connection, Request request, List<NoteKeys.VerifierKey> keys, String origin,
                                OutputStream out) throws SQLException {
        return ReadOnlySnapshot.run(connection, () -> {
            EvidenceLogReader log = new EvidenceLogReader(connection, request.workspaceId());
            Optional<EvidenceLogReader.StoredCheckpoint> head = log.latestCheckpoint();
            long treeSize = head.map(EvidenceLogReader.StoredCheckpoint::treeSize).orElse(0L);
            if (request.consistencyFrom() != null && request.consistencyFrom() > treeSize) {
                throw new IllegalArgumentException("consistencyFrom " + request.consistencyFrom()
                        + " is beyond the latest checkpoint's size " + treeSize);
            }
            long size = log.size();
            MerkleHasher hasher = new MerkleHasher();
            EvidenceExport.Writer writer = new EvidenceExport.Writer(out);
            writer.header(new EvidenceExport.Header(request.workspaceId().toString(),
                    head.map(h -> LiveVerification.originOf(h, origin)).orElse(origin), treeSize, request.complete(),
                    request.from() == null ? null : request.from().toString(), request.to() == null ? null : request.to().toString(),
                    Math.max(0, size - treeSize), Instant.now().toString()));
            for (String key : exportedKeys(keys, log)) {
                writer.key(key);
            }
            for (EvidenceLogReader.StoredCheckpoint checkpoint : log.checkpoints()) {
                if (checkpoint.treeSize() <= treeSize && (request.complete() || checkpoint.treeSize() == treeSize)) {
                    writer.checkpoint(checkpoint.note());
                }
            }
            if (request.consistencyFrom() != null) {
                writer.consistency(new EvidenceExport.Consistency(request.consistencyFrom(),
                        MerkleProofs.consistencyProof(request.consistencyFrom(), treeSize, log.nodes(), hasher)));
            }
            long from = 0;
            long to = treeSize;
            if (!request.complete()) {
                Optional<long[]> range = log.sequencesBetween(request.from(), request.to());
                if (range.isEmpty() || range.get()[0] >= treeSize) {
                    to = 0;
                } else {
                    from = range.get()[0];
                    to = Math.min(range.get()[1] + 1, treeSize);
                }
            }
            long end = to;
            MerkleProofs.NodeSource nodes = log.nodes();
            log.scan(from, to, new EvidenceLogReader.EntryVisitor() {
                @Override
                public void entry(ExportedEntry entry) {
                    if (request.complete()) {
                        writer.entry(entry);
                    } else {
                        long sequence = entry.entry().sequence();
                        List<byte[]> proof = sequence >= 0 && sequence < end
                                ? MerkleProofs.inclusionProof(sequence, treeSize, nodes, hasher) : null;
                        writer.entry(new ExportedEntry(entry.entry(), entry.sealedLeafHash(), entry.payloadExcerpt(),
                                entry.payloadErased(), proof));
                    }
                }

                @Override
                public void unreadable(long sequence, String problem) {
                    // left out: the verifier finds the gap (the live check names the cause)
                }
            });
            writer.end();
            return new Written(writer.entries(), treeSize);
        });
    }

    /**
     * The configured public keys; when none is configured, those the checkpoints name (the export then says which keys
     * signed it, and an auditor pins them by --key: the verifier reports keys taken from the export as not pinned).
     */
    private static List<String> exportedKeys(List<NoteKeys.VerifierKey> keys, EvidenceLogReader log) throws SQLException {
        Set<String> texts = new LinkedHashSet<>();
        keys.forEach(key -> texts.add(key.text()));
        if (texts.isEmpty()) {
            for (EvidenceLogReader.StoredCheckpoint checkpoint : log.checkpoints()) {
                if (checkpoint.signedBy() != null) {
                    texts.add(checkpoint.signedBy());
                }
            }
        }
        return new ArrayList<>(texts);
    }
}
