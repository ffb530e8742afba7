package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.decisioncore.state.ApprovalStatus;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceCounters;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Ends what the expiry index says is due at stream time, so the state holds only what can still move:
 * <ul>
 *   <li>a pending approval past its {@code expiresAt}: it expired; {@link ApprovalExpired} is emitted
 *       (once: it leaves the state) and the workspace's open approvals go down by one;</li>
 *   <li>an approved call never claimed, or claimed but its run never recorded (an executor that crashed
 *       mid-run), at its {@code forgetAt} (one approval TTL after its expiry): dropped without an event.
 *       The read model keeps showing it approved or executing, which is the truth: the gateway did not run
 *       its call, or ran it at most once with an unknown outcome;</li>
 *   <li>a revoked or expired API key, the grace period after it ended: removed with its id entry.</li>
 * </ul>
 *
 * <p>Run by a stream-time punctuator, and by a command whose answer depends on what is due (a review, a
 * claim, a key change, a workspace at its limit) before it is decided: whether the punctuator already ran
 * then depends on how records were batched, and the command must not. What a sweep ends is a function of
 * stream time alone (the latest acceptedAt of the partition), so a replay ends the same entries at the same
 * records. Its events are the approval's own: command id {@code DerivedIds.approvalExpiryId(approvalId)},
 * {@code occurredAt} its expiry, the system actor {@value #ACTOR_NAME}; it bumps no workspace version, as it
 * changes nothing any decision reads (an approval past its expiry can no longer be approved, an ended key
 * no longer authenticates).
 */
final class ExpirySweep {
    static final String ACTOR_NAME = "decision-stream";
    private static final Actor ACTOR = Actor.system(ACTOR_NAME);

    private final WorkspaceStores stores;
    private final OutcomeEmitter emitter;

    ExpirySweep(WorkspaceStores stores, OutcomeEmitter emitter) {
        this.stores = stores;
        this.emitter = emitter;
    }

    boolean anyDue(long streamTimeMillis) {
        return stores.expiries().anyDue(streamTimeMillis);
    }

    /** Ends everything due at {@code streamTimeMillis}; returns how many index entries it handled. */
    int run(long streamTimeMillis) {
        if (!anyDue(streamTimeMillis)) {
            return 0;
        }
        Instant now = Instant.ofEpochMilli(streamTimeMillis);
        List<EntryKeys.Expiry> due = stores.expiries().due(streamTimeMillis);
        Map<String, WorkspaceCounters> counters = new LinkedHashMap<>();
        for (EntryKeys.Expiry entry : due) {
            if (entry.kind() == EntryKeys.APPROVAL) {
                endApproval(entry, now, counters);
            } else if (entry.kind() == EntryKeys.API_KEY) {
                removeApiKey(entry, now, counters);
            } else {
                stores.removeIndexEntry(entry);
            }
        }
        stores.saveCounters(counters);
        stores.expiries().forgetEarliest();
        return due.size();
    }

    private void endApproval(EntryKeys.Expiry entry, Instant now, Map<String, WorkspaceCounters> counters) {
        PendingApproval approval = stores.storedApproval(entry.workspaceId(), entry.id());
        if (approval == null || approval.sweepAt().toEpochMilli() != entry.epochMillis()) {
            // the approval ended or moved on and has an index entry of its own (or none): this one is stale
            stores.removeIndexEntry(entry);
            return;
        }
        WorkspaceCounters current = counters.computeIfAbsent(entry.workspaceId(), stores::counters);
        if (approval.status() == ApprovalStatus.PENDING) {
            emitter.emitEvent(expired(entry, approval, current), now.toEpochMilli());
        }
        stores.deleteApproval(entry.workspaceId(), entry.id(), approval.sweepAt());
        counters.put(entry.workspaceId(), current.plusApprovals(-1));
    }

    private EventEnvelope expired(EntryKeys.Expiry entry, PendingApproval approval, WorkspaceCounters current) {
        String commandId = DerivedIds.approvalExpiryId(entry.id());
        long policySetVersion = stores.config(entry.workspaceId(), current).policySetVersion();
        return new EventEnvelope(EventEnvelope.CURRENT_VERSION, DerivedIds.eventId(commandId, 0), entry.workspaceId(),
                commandId, commandId, approval.expiresAt(), ACTOR, current.workspaceVersion(), policySetVersion,
                new ApprovalExpired(entry.id(), approval.expiresAt()));
    }

    private void removeApiKey(EntryKeys.Expiry entry, Instant now, Map<String, WorkspaceCounters> counters) {
        ApiKeyGrant grant = stores.storedApiKey(entry.workspaceId(), entry.id());
        Optional<Instant> removableAt = grant == null ? Optional.empty() : stores.removableAt(grant);
        if (removableAt.isEmpty()) {
            stores.removeIndexEntry(entry);
            return;
        }
        if (!now.isAfter(removableAt.get())) {
            // indexed under another grace period than the one in force now: file it where it belongs
            stores.reindexApiKey(entry, removableAt.get());
            return;
        }
        WorkspaceCounters current = counters.computeIfAbsent(entry.workspaceId(), stores::counters);
        stores.deleteApiKey(entry.workspaceId(), entry.id(), grant);
        stores.removeIndexEntry(entry);
        if (removableAt.get().toEpochMilli() != entry.epochMillis()) {
            stores.expiries().remove(removableAt.get().toEpochMilli(), EntryKeys.API_KEY, entry.workspaceId(), entry.id());
        }
        counters.put(entry.workspaceId(), current.plusApiKeys(-1));
    }
}
