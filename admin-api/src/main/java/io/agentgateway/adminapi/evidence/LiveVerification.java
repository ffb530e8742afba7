package io.agentgateway.adminapi.evidence;

import io.agentgateway.evidence.Checkpoint;
import io.agentgateway.evidence.EvidenceExport;
import io.agentgateway.evidence.EvidenceVerifier;
import io.agentgateway.evidence.ExportedEntry;
import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.evidence.SignedNote;
import io.agentgateway.evidence.VerificationReport;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The live check: the offline verifier's algorithm ({@link EvidenceVerifier}) over the rows PostgreSQL holds now, in
 * one snapshot. Each audit row's entry is recomputed from its columns and compared with the leaf sealed for it and with
 * every checkpoint's signed root; the checkpoints' signatures are checked with the keys this process was configured
 * with (never a key found in the database). Beyond the offline checks, it reports what only the database shows: a sealed
 * undelivered mark the row does not show. An audit row inserted, renumbered or moved in from another workspace is an
 * entry the verifier finds out of order or in place of another.
 */
public final class LiveVerification {
    private LiveVerification() {}

    /**
     * @param trustedKeys        the keys checkpoints must be signed by; empty: this gateway signs none, unsigned
     *                           checkpoints are accepted and the report says so
     * @param previousCheckpoint a checkpoint seen before (note text), or null
     * @param origin             the origin to report when the log has no checkpoint yet
     */
    public static VerificationReport verify(Connection connection, UUID workspaceId, List<NoteKeys.VerifierKey> trustedKeys,
                                            String previousCheckpoint, String origin) throws SQLException {
        return ReadOnlySnapshot.run(connection, () -> {
            EvidenceLogReader log = new EvidenceLogReader(connection, workspaceId);
            List<EvidenceLogReader.StoredCheckpoint> checkpoints = log.checkpoints();
            EvidenceLogReader.StoredCheckpoint head = checkpoints.isEmpty() ? null : log.latestCheckpoint().orElseThrow();
            long treeSize = head == null ? 0 : head.treeSize();
            long size = log.size();
            EvidenceVerifier verifier = new EvidenceVerifier(new EvidenceVerifier.Options(trustedKeys, previousCheckpoint,
                    trustedKeys.isEmpty()));
            verifier.header(new EvidenceExport.Header(workspaceId.toString(), head == null ? origin : originOf(head, origin),
                    treeSize, true, null, null, Math.max(0, size - treeSize), Instant.now().toString()));
            checkpoints.forEach(checkpoint -> verifier.checkpoint(checkpoint.note()));
            long[] fed = {0};
            log.scan(0, Long.MAX_VALUE, new EvidenceLogReader.EntryVisitor() {
                @Override
                public void entry(ExportedEntry entry) {
                    fed[0]++;
                    verifier.entry(entry);
                }

                @Override
                public void unreadable(long sequence, String problem) {
                    verifier.problem(sequence, problem);
                }
            });
            unshownMarks(connection, workspaceId, verifier);
            verifier.end(fed[0]);
            return verifier.finish();
        });
    }

    /** A sealed {@code evaluation_undelivered} entry whose audit row does not say undelivered. */
    private static void unshownMarks(Connection connection, UUID workspaceId, EvidenceVerifier verifier) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("""
                select e.sequence, a.id::text from evidence_entries e
                  join audit_log a on a.id = e.audit_log_id and a.workspace_id = e.workspace_id
                 where e.workspace_id = ? and e.kind = 'evaluation_undelivered' and not a.undelivered
                """)) {
            query.setObject(1, workspaceId);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    verifier.problem(rows.getLong(1), "the audit row " + rows.getString(2)
                            + " does not show the undelivered mark sealed for it");
                }
            }
        }
    }

    static String originOf(EvidenceLogReader.StoredCheckpoint checkpoint, String fallback) {
        try {
            return Checkpoint.parse(SignedNote.parse(checkpoint.note()).text()).origin();
        } catch (IllegalArgumentException unreadable) {
            return fallback;
        }
    }
}
