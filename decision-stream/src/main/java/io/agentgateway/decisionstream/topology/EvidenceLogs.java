package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.evidence.EvidenceLog;
import io.agentgateway.decisioncore.evidence.EvidenceSealer;
import io.agentgateway.decisioncore.evidence.EvidenceSettings;
import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The workspaces' Merkle logs in the {@code evidence-log} store (key: workspace id; value: {@link EvidenceLog}, a few
 * hundred bytes): seals each decided outcome in log order ({@link EvidenceSealer}) and, from a wall-clock punctuator,
 * issues the checkpoint of every log whose entries waited {@code checkpoint-interval}.
 *
 * <p>Which logs wait is kept in memory (workspace id to the time its oldest unchecked entry was decided), filled from
 * the store when the task starts: the timer then reads only those logs, not the whole store, and a checkpoint owed when
 * the task moved or restarted is still issued. A timed checkpoint is a record of its own (its ids derive from the
 * workspace and the tree size, so one issued again after a crash is the same record).
 *
 * <p>The store is cached ({@link DecisionTopology}): a workspace's log is written to it, and to its changelog, once per
 * commit however many decisions changed it, not once per decision. What makes the latest state durable at once is the
 * decision's own record in {@code processed-commands}, which carries the log as its seals left it ({@link #logAfter}).
 * Under exactly-once both are in one transaction. Under at-least-once a crash can lose the store's last writes while
 * the decisions' records survive: those commands are after the last committed offset, so they come again first, in log
 * order, are found remembered, and the log catches up with each ({@link #catchUp}) before anything new is sealed. No
 * sequence number is ever given twice.
 */
final class EvidenceLogs {
    private final KeyValueStore<String, byte[]> store;
    private final EvidenceSealer sealer;
    private final OutcomeEmitter emitter;
    private final Map<String, Long> waiting = new HashMap<>();
    /**
     * The logs of the workspaces most recently sealed, as stored: a decision then skips reading and decoding its log
     * (the store is still written with every change, for the changelog). Made anew with the processor at every
     * (re)initialization, so it never outlives a restore.
     */
    private final Map<String, EvidenceLog> recent = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, EvidenceLog> eldest) {
            return size() > RECENT_LOGS;
        }
    };
    static final int RECENT_LOGS = 4096;
    /** The outcome {@link #seal} returned last, and its workspace's log as encoded then: for {@link #logAfter}. */
    private Outcome lastSealed;
    private byte[] lastSealedLog;

    EvidenceLogs(ProcessorContext<String, Object> context, EvidenceSettings settings, OutcomeEmitter emitter) {
        this.store = context.getStateStore(DecisionTopology.EVIDENCE_LOG_STORE);
        this.sealer = new EvidenceSealer(settings);
        this.emitter = emitter;
        if (settings.enabled()) {
            try (KeyValueIterator<String, byte[]> all = store.all()) {
                while (all.hasNext()) {
                    KeyValue<String, byte[]> stored = all.next();
                    EvidenceLog log = EvidenceLog.decode(stored.value);
                    if (log.pending()) {
                        waiting.put(stored.key, log.pendingSinceMs());
                    }
                }
            }
        }
    }

    /** The outcome with its entries sealed into the workspace's log, which is stored when it changed. */
    Outcome seal(CommandEnvelope envelope, Outcome outcome) {
        if (!sealer.settings().enabled() || outcome.events().isEmpty() || outcome.workspaceId() == null) {
            return outcome;
        }
        String workspaceId = outcome.workspaceId();
        EvidenceLog log = load(workspaceId);
        long size = log.size();
        Outcome sealed = sealer.seal(envelope, outcome, log);
        if (log.size() != size) {
            byte[] encoded = log.encode();
            store.put(workspaceId, encoded);
            lastSealed = sealed;
            lastSealedLog = encoded;
            if (log.pending()) {
                waiting.putIfAbsent(workspaceId, log.pendingSinceMs());
            } else {
                waiting.remove(workspaceId);
            }
        }
        return sealed;
    }

    /**
     * The workspace's log as {@code sealed}'s entries left it, encoded, when {@code sealed} is what {@link #seal} just
     * returned and it sealed something; else null.
     */
    byte[] logAfter(Outcome sealed) {
        return sealed == lastSealed ? lastSealedLog : null;
    }

    /**
     * A decision emitted again: the workspace's log becomes the one its seals left ({@code encodedLog}) if that is
     * further on than the log here (the store lost writes in a crash: see the class comment). A log only grows, so a
     * longer one is a later state of the same log, and a shorter or equal one is already included.
     */
    void catchUp(String workspaceId, byte[] encodedLog) {
        if (encodedLog == null || workspaceId == null || !sealer.settings().enabled()) {
            return;
        }
        EvidenceLog current = load(workspaceId);
        EvidenceLog stored = EvidenceLog.decode(encodedLog);
        if (stored.size() <= current.size()) {
            return;
        }
        store.put(workspaceId, encodedLog);
        recent.put(workspaceId, stored);
        if (stored.pending()) {
            waiting.putIfAbsent(workspaceId, stored.pendingSinceMs());
        } else {
            waiting.remove(workspaceId);
        }
    }

    /** Issues the checkpoint of every log whose entries waited long enough at {@code wallClockMs}. */
    void checkpointWaiting(long wallClockMs) {
        long interval = sealer.settings().checkpointInterval().toMillis();
        Iterator<Map.Entry<String, Long>> logs = waiting.entrySet().iterator();
        while (logs.hasNext()) {
            Map.Entry<String, Long> waited = logs.next();
            if (wallClockMs - waited.getValue() < interval) {
                continue;
            }
            EvidenceLog log = load(waited.getKey());
            if (sealer.checkpointDue(log, wallClockMs)) {
                EventEnvelope checkpoint = sealer.timedCheckpoint(waited.getKey(), log, Instant.ofEpochMilli(wallClockMs));
                store.put(waited.getKey(), log.encode());
                emitter.emitEvent(checkpoint, wallClockMs);
            }
            if (!log.pending()) {
                logs.remove();
            }
        }
    }

    private EvidenceLog load(String workspaceId) {
        EvidenceLog cached = recent.get(workspaceId);
        if (cached != null) {
            return cached;
        }
        byte[] stored = store.get(workspaceId);
        EvidenceLog log = stored == null ? EvidenceLog.empty() : EvidenceLog.decode(stored);
        recent.put(workspaceId, log);
        return log;
    }
}
