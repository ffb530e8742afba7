package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.evidence.Entry;
import io.agentgateway.evidence.EntryFields;
import io.agentgateway.evidence.EntryKinds;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.AuditPayloadErased;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Merkle log's copies: each sealed event's entry row, the nodes its leaf completed, its audit row's sequence and
 * digests, checkpoints (two of one size kept: a fork must stay visible), and a payload's erasure, which keeps the
 * digests; a redelivery adds nothing.
 */
class EvidenceProjectionTest extends ProjectorTestCase {
    EvidenceProjectionTest() {
        super("projector_evidence");
    }

    @Test
    void sealedEventsCheckpointsAndAnErasureLandOnce() {
        WorkspaceEvents ws = new WorkspaceEvents();
        List<EventEnvelope> events = new ArrayList<>();
        events.add(ws.created("Acme"));
        for (int i = 0; i < 4; i++) {
            events.add(ws.sealed(ws.evaluation("docs.read")));
        }
        events.add(ws.sealed(ws.stateChange(c -> new KillSwitchChanged(DerivedIds.auditLogId(c), KillSwitchAction.ENABLE,
                null, true, Set.of()))));
        String erasedId = ((ActionEvaluated) events.get(1).event()).auditLogId();
        Entry erasure = Entry.of(EntryKinds.AUDIT_PAYLOAD_ERASED, Map.of(EntryFields.SEQUENCE, "5",
                EntryFields.WORKSPACE_ID, ws.workspaceId, EntryFields.AUDIT_LOG_ID, erasedId));
        events.add(ws.sealed(ws.record(c -> new AuditPayloadErased(erasedId, "privacy")),
                Base64.getEncoder().encodeToString(erasure.encode())));
        for (int i = 0; i < 10; i++) {
            events.add(ws.sealed(ws.evaluation("docs.read")));
        }
        EventEnvelope checkpoint = ws.checkpoint();
        events.add(checkpoint);
        publisher.publish(events);

        eventually().until(() -> count("evidence_checkpoints", ws) == 1);
        // the audit rows are entries themselves (sequence and leaf in the row); the erasure is an entry of its own
        assertThat(jdbc.queryForList("select sequence from evidence_entries where workspace_id = ?::uuid order by sequence",
                Long.class, ws.workspaceId)).containsExactly(5L);
        assertThat(jdbc.queryForObject("select kind from evidence_entries where workspace_id = ?::uuid and sequence = 5",
                String.class, ws.workspaceId)).isEqualTo("audit_payload_erased");
        assertThat(jdbc.queryForObject("select audit_log_id::text from evidence_entries where workspace_id = ?::uuid and sequence = 5",
                String.class, ws.workspaceId)).isEqualTo(erasedId);
        assertThat(jdbc.queryForObject("select entry from evidence_entries where workspace_id = ?::uuid and sequence = 5",
                String.class, ws.workspaceId)).isEqualTo(Base64.getEncoder().encodeToString(erasure.encode()));
        assertThat(jdbc.queryForList("select leaf_hash from audit_log where workspace_id = ?::uuid order by sequence limit 5",
                String.class, ws.workspaceId)).containsExactly(events.get(1).seal().leafHash(), events.get(2).seal().leafHash(),
                events.get(3).seal().leafHash(), events.get(4).seal().leafHash(), events.get(5).seal().leafHash());
        // sixteen leaves: the one node kept is the root of all sixteen (level 4); the lower ones are hashed from leaves
        assertThat(jdbc.queryForList("select level || ':' || node_index from evidence_nodes where workspace_id = ?::uuid"
                + " order by level, node_index", String.class, ws.workspaceId)).containsExactly("4:0");
        assertThat(jdbc.queryForList("select sequence from audit_log where workspace_id = ?::uuid order by sequence limit 5",
                Long.class, ws.workspaceId)).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(jdbc.queryForObject("select payload_excerpt_sha256 from audit_log where id = ?::uuid", String.class,
                erasedId)).isEqualTo(events.get(1).seal().payloadExcerptSha256());
        // erased: the excerpt is gone, the digests stay
        assertThat(jdbc.queryForMap("select payload_excerpt, payload_erased_at is not null as erased, payload_sha256"
                + " from audit_log where id = ?::uuid", erasedId))
                .containsEntry("payload_excerpt", null).containsEntry("erased", true)
                .containsEntry("payload_sha256", events.get(1).seal().payloadSha256());
        assertThat(jdbc.queryForObject("select tree_size from evidence_checkpoints where workspace_id = ?::uuid", Long.class,
                ws.workspaceId)).isEqualTo(16L);

        // redelivered: nothing more; another checkpoint of the same size (a fork) is kept beside the first
        publisher.publish(events);
        EventEnvelope fork = ws.record(c -> new io.agentgateway.schemas.event.CheckpointIssued("test/" + ws.workspaceId, 16,
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "test/" + ws.workspaceId + "\n16\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n", null));
        publisher.publish(fork);
        eventually().until(() -> count("evidence_checkpoints", ws) == 2);
        assertThat(count("evidence_entries", ws)).isEqualTo(1);
        assertThat(count("evidence_nodes", ws)).isEqualTo(1);
    }

    private long count(String table, WorkspaceEvents ws) {
        return jdbc.queryForObject("select count(*) from " + table + " where workspace_id = ?::uuid", Long.class, ws.workspaceId);
    }
}
