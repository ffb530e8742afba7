package io.agentgateway.projector.readmodel;

import io.agentgateway.evidence.Entry;
import io.agentgateway.evidence.EntryEncoding;
import io.agentgateway.evidence.EntryFields;
import io.agentgateway.evidence.Hashes;
import io.agentgateway.evidence.NodeId;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.AuditPayloadErased;
import io.agentgateway.schemas.event.CheckpointIssued;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EvidenceSeal;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.LimitReached;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The workspaces' Merkle logs as copies an outsider can check: {@code evidence_entries} (one row per sealed entry),
 * {@code evidence_nodes} (every complete subtree the stream computed), {@code evidence_checkpoints}, and the erasure
 * of an audit row's payload. Every row is keyed by what the stream sealed (workspace and sequence, node position,
 * event id) and inserted once: a redelivered event is a no-op. Nothing here is trusted by the checks: they recompute
 * the entries and compare with the signed roots.
 */
final class EvidenceWrites {
    private EvidenceWrites() {}

    private static final SqlStatement ENTRY = SqlStatement.appendOnly("""
            insert into evidence_entries (workspace_id, sequence, kind, event_id, audit_log_id, leaf_hash, entry)
            values (:workspace_id::uuid, :sequence, :kind, :event_id::uuid, :audit_log_id::uuid, :leaf_hash, :entry)
            on conflict (workspace_id, sequence) do nothing
            """);

    /**
     * The lowest level of the complete subtrees {@code evidence_nodes} keeps (16 leaves): the readers hash lower ones from
     * the leaves ({@code EvidenceLogReader.MIN_STORED_LEVEL}, the same number).
     */
    static final int MIN_STORED_LEVEL = 4;

    private static final SqlStatement NODE = SqlStatement.appendOnly("""
            insert into evidence_nodes (workspace_id, level, node_index, hash)
            values (:workspace_id::uuid, :level, :node_index, :hash)
            on conflict (workspace_id, level, node_index) do nothing
            """);

    private static final SqlStatement CHECKPOINT = SqlStatement.appendOnly("""
            insert into evidence_checkpoints (event_id, workspace_id, tree_size, root_hash, note, signed_by, issued_at)
            values (:event_id::uuid, :workspace_id::uuid, :tree_size, :root_hash, :note, :signed_by, :occurred_at)
            on conflict (event_id) do nothing
            """);

    /** The row keeps its digests (sealed); its excerpt goes, here and in the webhook event that carried it. */
    private static final SqlStatement ERASE_AUDIT_PAYLOAD = SqlStatement.amendingAppended("""
            update audit_log set payload_excerpt = null, payload_erased_at = :occurred_at
             where id = :audit_log_id::uuid and workspace_id = :workspace_id::uuid and payload_erased_at is null
            """);

    private static final SqlStatement ERASE_WEBHOOK_PAYLOAD = SqlStatement.amendingAppended("""
            update webhook_events set payload_excerpt = null
             where audit_log_id = :audit_log_id::uuid and workspace_id = :workspace_id::uuid and payload_excerpt is not null
            """);

    /**
     * The rows of a sealed event's seal: the nodes its leaf completed and, for an entry that is no audit row, the entry
     * (an audit row carries its sequence and leaf itself: {@code AuditLogWrites}).
     */
    static List<Write> sealed(EventEnvelope envelope) {
        EvidenceSeal seal = envelope.seal();
        if (seal.sequence() < 0) {
            throw new InvalidEventException("a seal with a negative sequence");
        }
        Hashes.fromBase64(seal.leafHash());
        DomainEvent event = envelope.event();
        boolean auditRow = event instanceof ActionEvaluated || event instanceof KillSwitchChanged || event instanceof LimitReached;
        if (auditRow == (seal.entry() != null)) {
            throw new InvalidEventException(auditRow ? "an audit row's seal with an entry of its own"
                    : "a seal without its entry on " + event.getClass().getSimpleName());
        }
        List<NodeId> nodes = NodeId.completedBy(seal.sequence());
        if (nodes.size() != seal.nodes().size()) {
            throw new InvalidEventException("a seal names " + seal.nodes().size() + " completed nodes, its sequence "
                    + nodes.size());
        }
        List<Write> writes = new ArrayList<>(1 + nodes.size());
        if (!auditRow) {
            Entry entry = EntryEncoding.decode(Base64.getDecoder().decode(seal.entry()));
            if (entry.sequence() != seal.sequence()) {
                throw new InvalidEventException("a sealed entry whose sequence is not its seal's");
            }
            writes.add(new Write(ENTRY, new SqlParams()
                    .uuid("workspace_id", envelope.workspaceId())
                    .bigint("sequence", seal.sequence())
                    .text("kind", entry.kind())
                    .uuid("event_id", envelope.eventId())
                    .uuid("audit_log_id", entry.field(EntryFields.AUDIT_LOG_ID))
                    .text("leaf_hash", seal.leafHash())
                    .text("entry", seal.entry())
                    .source()));
        }
        for (int i = 0; i < nodes.size(); i++) {
            Hashes.fromBase64(seal.nodes().get(i));
            if (nodes.get(i).level() < MIN_STORED_LEVEL) {
                // a subtree of at most 8 leaves is hashed from its leaves when a proof needs it: 7 of 8 node rows saved
                continue;
            }
            writes.add(new Write(NODE, new SqlParams()
                    .uuid("workspace_id", envelope.workspaceId())
                    .integer("level", nodes.get(i).level())
                    .bigint("node_index", nodes.get(i).index())
                    .text("hash", seal.nodes().get(i))
                    .source()));
        }
        return writes;
    }

    static Write checkpoint(EventEnvelope envelope, CheckpointIssued checkpoint) {
        if (checkpoint.note() == null || checkpoint.rootHash() == null || checkpoint.treeSize() < 0) {
            throw new InvalidEventException("a checkpoint without its note, root or size");
        }
        Hashes.fromBase64(checkpoint.rootHash());
        return new Write(CHECKPOINT, EnvelopeParams.of(envelope)
                .bigint("tree_size", checkpoint.treeSize())
                .text("root_hash", checkpoint.rootHash())
                .text("note", checkpoint.note())
                .text("signed_by", checkpoint.signedBy())
                .source());
    }

    static List<Write> payloadErased(EventEnvelope envelope, AuditPayloadErased erased) {
        if (erased.auditLogId() == null) {
            throw new InvalidEventException("an erasure without its audit entry");
        }
        return List.of(
                new Write(ERASE_AUDIT_PAYLOAD, EnvelopeParams.of(envelope).uuid("audit_log_id", erased.auditLogId()).source()),
                new Write(ERASE_WEBHOOK_PAYLOAD, new SqlParams().uuid("workspace_id", envelope.workspaceId())
                        .uuid("audit_log_id", erased.auditLogId()).source()));
    }
}
