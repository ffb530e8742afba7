package io.agentgateway.adminapi.evidence;

import io.agentgateway.evidence.Entry;
import io.agentgateway.evidence.EntryEncoding;
import io.agentgateway.evidence.EntryFields;
import io.agentgateway.evidence.EntryKinds;
import io.agentgateway.evidence.ExportedEntry;
import io.agentgateway.evidence.Hashes;
import io.agentgateway.evidence.MerkleHasher;
import io.agentgateway.evidence.MerkleProofs;
import io.agentgateway.evidence.NodeId;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A workspace's Merkle log as the read model holds it (plain JDBC on the caller's connection, so that the admin API,
 * the export and the launcher's commands read it alike): checkpoints, entries in sequence order (audit rows, each an
 * entry of its own, and the other entries of {@code evidence_entries}), and the stored nodes a proof is made of. Nothing read here is trusted: the checks recompute entries and compare
 * them with signed roots.
 */
public final class EvidenceLogReader {
    /** Rows a scan fetches per round trip (an entry row with its audit row is a few KiB at most). */
    static final int FETCH_SIZE = 500;

    private final Connection connection;
    private final UUID workspaceId;

    public EvidenceLogReader(Connection connection, UUID workspaceId) {
        this.connection = connection;
        this.workspaceId = workspaceId;
    }

    public UUID workspaceId() {
        return workspaceId;
    }

    /** One stored checkpoint. */
    public record StoredCheckpoint(String eventId, long treeSize, String rootHash, String note, String signedBy,
                                   Instant issuedAt) {}

    /** Every checkpoint of the workspace, smallest first (of one size: in the order they were issued). */
    public List<StoredCheckpoint> checkpoints() throws SQLException {
        return checkpoints("", null);
    }

    /** The checkpoints of one size: more than one is a fork. */
    public List<StoredCheckpoint> checkpointsOfSize(long treeSize) throws SQLException {
        return checkpoints(" and tree_size = ?", treeSize);
    }

    /** The checkpoint of the largest size (the first issued, if a fork gave it two). */
    public Optional<StoredCheckpoint> latestCheckpoint() throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("""
                select event_id::text, tree_size, root_hash, note, signed_by, issued_at from evidence_checkpoints
                 where workspace_id = ? order by tree_size desc, issued_at, event_id limit 1
                """)) {
            query.setObject(1, workspaceId);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() ? Optional.of(checkpoint(rows)) : Optional.empty();
            }
        }
    }

    private List<StoredCheckpoint> checkpoints(String condition, Long size) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "select event_id::text, tree_size, root_hash, note, signed_by, issued_at from evidence_checkpoints"
                        + " where workspace_id = ?" + condition + " order by tree_size, issued_at, event_id")) {
            query.setObject(1, workspaceId);
            if (size != null) {
                query.setLong(2, size);
            }
            List<StoredCheckpoint> checkpoints = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    checkpoints.add(checkpoint(rows));
                }
            }
            return checkpoints;
        }
    }

    private static StoredCheckpoint checkpoint(ResultSet row) throws SQLException {
        OffsetDateTime issued = row.getObject(6, OffsetDateTime.class);
        return new StoredCheckpoint(row.getString(1), row.getLong(2), row.getString(3), row.getString(4), row.getString(5),
                issued == null ? null : issued.toInstant());
    }

    /** How many entries the log holds: one past the highest sequence (of an audit row or another entry). */
    public long size() throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("""
                select greatest(coalesce((select max(sequence) + 1 from audit_log where workspace_id = ?), 0),
                                coalesce((select max(sequence) + 1 from evidence_entries where workspace_id = ?), 0))
                """)) {
            query.setObject(1, workspaceId);
            query.setObject(2, workspaceId);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** The sequence the audit row was sealed at, if it was (a row from before the log, or sealed while it was off, has none). */
    public Optional<Long> sequenceOfAuditRow(UUID auditLogId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "select sequence from audit_log where id = ? and workspace_id = ? and sequence is not null")) {
            query.setObject(1, auditLogId);
            query.setObject(2, workspaceId);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() ? Optional.of(rows.getLong(1)) : Optional.empty();
            }
        }
    }

    /** Whether the workspace holds the audit row (erasure and proofs answer 404 otherwise). */
    public boolean holdsAuditRow(UUID auditLogId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "select 1 from audit_log where id = ? and workspace_id = ?")) {
            query.setObject(1, auditLogId);
            query.setObject(2, workspaceId);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next();
            }
        }
    }

    /** The audit row ids a later {@code evaluation_undelivered} entry marked (their sealed entry says delivered). */
    Set<String> markedUndelivered() throws SQLException {
        Set<String> marked = new HashSet<>();
        try (PreparedStatement query = connection.prepareStatement("select audit_log_id::text from evidence_entries"
                + " where workspace_id = ? and kind = '" + EntryKinds.EVALUATION_UNDELIVERED + "'")) {
            query.setObject(1, workspaceId);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    marked.add(rows.getString(1));
                }
            }
        }
        return marked;
    }

    /** What a scan finds at each sequence. */
    public interface EntryVisitor {
        /** The entry at its sequence: an audit row's recomputed from its columns, another kind's decoded. */
        void entry(ExportedEntry entry) throws SQLException;

        /** The log has an entry at {@code sequence} that cannot be recomputed (its audit row is gone, its bytes unreadable). */
        void unreadable(long sequence, String problem);
    }

    /**
     * Walks the entries {@code [from, to)} in sequence order (two server-side cursors, the audit rows and the other
     * entries, merged: constant memory). Call inside a transaction (the PostgreSQL driver streams only there).
     */
    public void scan(long from, long to, EntryVisitor visitor) throws SQLException {
        Set<String> marked = markedUndelivered();
        try (PreparedStatement auditQuery = connection.prepareStatement("select " + AuditEntryRows.COLUMNS
                + " from audit_log a where a.workspace_id = ? and a.sequence >= ? and a.sequence < ? order by a.sequence");
             PreparedStatement otherQuery = connection.prepareStatement("select sequence, leaf_hash, entry from evidence_entries"
                     + " where workspace_id = ? and sequence >= ? and sequence < ? order by sequence")) {
            for (PreparedStatement query : List.of(auditQuery, otherQuery)) {
                query.setFetchSize(FETCH_SIZE);
                query.setObject(1, workspaceId);
                query.setLong(2, from);
                query.setLong(3, to);
            }
            try (ResultSet audit = auditQuery.executeQuery(); ResultSet other = otherQuery.executeQuery()) {
                boolean moreAudit = audit.next();
                boolean moreOther = other.next();
                while (moreAudit || moreOther) {
                    if (moreAudit && (!moreOther || audit.getLong("a_sequence") <= other.getLong("sequence"))) {
                        long sequence = audit.getLong("a_sequence");
                        byte[] leaf = leafOf(audit.getString("a_leaf_hash"));
                        if (leaf == null) {
                            visitor.unreadable(sequence, "the audit row " + audit.getString("a_id") + " has no sealed leaf hash");
                        } else {
                            visitor.entry(AuditEntryRows.read(audit, leaf, marked.contains(audit.getString("a_id"))));
                        }
                        moreAudit = audit.next();
                    } else {
                        long sequence = other.getLong("sequence");
                        byte[] leaf = leafOf(other.getString("leaf_hash"));
                        Entry entry = null;
                        try {
                            entry = EntryEncoding.decode(Base64.getDecoder().decode(other.getString("entry")));
                        } catch (IllegalArgumentException | NullPointerException unreadable) {
                            // reported below
                        }
                        if (leaf == null || entry == null) {
                            visitor.unreadable(sequence, "its stored entry or leaf hash cannot be read");
                        } else {
                            visitor.entry(new ExportedEntry(entry, leaf, null, false, null));
                        }
                        moreOther = other.next();
                    }
                }
            }
        }
    }

    private static byte[] leafOf(String base64) {
        try {
            return Hashes.fromBase64(base64);
        } catch (IllegalArgumentException notAHash) {
            return null;
        }
    }

    /** Audit rows the log never sealed (from before it, or from a time sealing was switched off). */
    public long unsealedRows() throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "select count(*) from audit_log where workspace_id = ? and sequence is null")) {
            query.setObject(1, workspaceId);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** The lowest and highest sequence of the audit rows of a time range, if any. */
    public Optional<long[]> sequencesBetween(Instant from, Instant to) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("select min(sequence), max(sequence) from audit_log"
                + " where workspace_id = ? and occurred_at >= ? and occurred_at < ? and sequence is not null")) {
            query.setObject(1, workspaceId);
            query.setObject(2, OffsetDateTime.ofInstant(from, ZoneOffset.UTC));
            query.setObject(3, OffsetDateTime.ofInstant(to, ZoneOffset.UTC));
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                long min = rows.getLong(1);
                if (rows.wasNull()) {
                    return Optional.empty();
                }
                return Optional.of(new long[] {min, rows.getLong(2)});
            }
        }
    }

    /**
     * The stored hashes of complete subtrees, one query per call: the leaves from {@code evidence_entries}, the rest from
     * {@code evidence_nodes}, each found by its primary key.
     */
    public MerkleProofs.NodeSource nodes() {
        return wanted -> {
            try {
                return hashes(wanted);
            } catch (SQLException e) {
                throw new EvidenceReadException(e);
            }
        };
    }

    /**
     * The lowest level of the complete subtrees the read model keeps ({@code evidence_nodes}; the projector's
     * {@code EvidenceWrites.MIN_STORED_LEVEL}): a lower one (at most 8 leaves) is hashed here from its leaves.
     */
    public static final int MIN_STORED_LEVEL = 4;

    private Map<NodeId, byte[]> hashes(Collection<NodeId> wanted) throws SQLException {
        Set<Long> leaves = new TreeSet<>();
        List<NodeId> fromLeaves = new ArrayList<>();
        List<Integer> levels = new ArrayList<>();
        List<Long> indexes = new ArrayList<>();
        for (NodeId node : wanted) {
            if (node.level() == 0) {
                leaves.add(node.index());
            } else if (node.level() < MIN_STORED_LEVEL) {
                fromLeaves.add(node);
                for (long leaf = node.firstLeaf(); leaf < node.endLeaf(); leaf++) {
                    leaves.add(leaf);
                }
            } else {
                levels.add(node.level());
                indexes.add(node.index());
            }
        }
        Map<NodeId, byte[]> found = new HashMap<>();
        try (PreparedStatement query = connection.prepareStatement("""
                select n.level, n.node_index, n.hash
                  from unnest(?::int[], ?::bigint[]) as w(level, node_index)
                  join evidence_nodes n on n.workspace_id = ? and n.level = w.level and n.node_index = w.node_index
                union all
                select 0, a.sequence, a.leaf_hash from audit_log a
                 where a.workspace_id = ? and a.sequence = any(?::bigint[])
                union all
                select 0, e.sequence, e.leaf_hash from evidence_entries e
                 where e.workspace_id = ? and e.sequence = any(?::bigint[])
                """)) {
            Array levelArray = connection.createArrayOf("int4", levels.toArray());
            Array indexArray = connection.createArrayOf("int8", indexes.toArray());
            Array leafArray = connection.createArrayOf("int8", leaves.toArray());
            query.setArray(1, levelArray);
            query.setArray(2, indexArray);
            query.setObject(3, workspaceId);
            query.setObject(4, workspaceId);
            query.setArray(5, leafArray);
            query.setObject(6, workspaceId);
            query.setArray(7, leafArray);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    try {
                        found.put(new NodeId(rows.getInt(1), rows.getLong(2)), Hashes.fromBase64(rows.getString(3)));
                    } catch (IllegalArgumentException notAHash) {
                        // left out: the proof then fails to build, as for a missing node
                    }
                }
            }
        }
        MerkleHasher hasher = new MerkleHasher();
        for (NodeId node : fromLeaves) {
            byte[] hash = subtreeFromLeaves(node, found, hasher);
            if (hash != null) {
                found.put(node, hash);
            }
        }
        return found;
    }

    /** A perfect subtree's hash from its leaves (null when one is missing: the proof then fails to build). */
    private static byte[] subtreeFromLeaves(NodeId node, Map<NodeId, byte[]> found, MerkleHasher hasher) {
        List<byte[]> level = new ArrayList<>();
        for (long leaf = node.firstLeaf(); leaf < node.endLeaf(); leaf++) {
            byte[] hash = found.get(new NodeId(0, leaf));
            if (hash == null) {
                return null;
            }
            level.add(hash);
        }
        while (level.size() > 1) {
            List<byte[]> up = new ArrayList<>(level.size() / 2);
            for (int i = 0; i < level.size(); i += 2) {
                up.add(hasher.node(level.get(i), level.get(i + 1)));
            }
            level = up;
        }
        return level.get(0);
    }

    /** A read of the log that failed inside a proof's node lookup. */
    public static final class EvidenceReadException extends RuntimeException {
        EvidenceReadException(SQLException cause) {
            super(cause);
        }

        @Override
        public synchronized SQLException getCause() {
            return (SQLException) super.getCause();
        }
    }

    /** The audit log id an entry of another kind concerns, if any. */
    static String auditLogIdOf(Entry entry) {
        return entry.field(EntryFields.AUDIT_LOG_ID);
    }
}
