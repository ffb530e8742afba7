package io.agentgateway.projector;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.WorkspaceCreated;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.function.Function;

/**
 * The events of one fresh workspace (a random id, so tests never see each other's rows), written the
 * way the decision stream writes them: a new command id per command, ids derived from it, the
 * workspace version counting state changes.
 */
final class WorkspaceEvents {
    static final Actor ADMIN = Actor.user("user-admin", "admin@example.com");

    final String workspaceId;
    private Actor actor = ADMIN;
    /** When the next events occurred; null: now. */
    private Instant occurredAt;
    private long version;
    private long policySetVersion = 1;

    WorkspaceEvents() {
        this(UUID.randomUUID().toString());
    }

    /** A workspace of a chosen id (one whose key lands in a given partition). */
    WorkspaceEvents(String workspaceId) {
        this.workspaceId = workspaceId;
    }

    /** Creation is version 1, its creator the owner. */
    EventEnvelope created(String name) {
        return stateChange(commandId -> new WorkspaceCreated(name, "user-owner", "owner@example.com"));
    }

    /** A command that changed the workspace's state: the version goes up. */
    EventEnvelope stateChange(Function<String, DomainEvent> event) {
        return envelope(++version, event);
    }

    /** Same, and the policy set changes with it. */
    EventEnvelope policyChange(Function<String, DomainEvent> event) {
        policySetVersion++;
        return stateChange(event);
    }

    /** A command that only recorded something (an evaluation): the version stays. */
    EventEnvelope record(Function<String, DomainEvent> event) {
        return envelope(version, event);
    }

    /** A command at an explicit version (to play a stale event). */
    EventEnvelope atVersion(long workspaceVersion, Function<String, DomainEvent> event) {
        return envelope(workspaceVersion, event);
    }

    /** Who issues the following commands (an admin unless told). */
    /** The next events occurred at {@code at} (null: at the time they are made). */
    WorkspaceEvents occurringAt(Instant at) {
        this.occurredAt = at;
        return this;
    }

    WorkspaceEvents actingAs(Actor next) {
        this.actor = next;
        return this;
    }

    long version() {
        return version;
    }

    long policySetVersion() {
        return policySetVersion;
    }

    /** An allowed low-risk evaluation: the cheapest row to wait for. */
    EventEnvelope evaluation(String action) {
        return record(commandId -> new ActionEvaluated(DerivedIds.auditLogId(commandId), Tool.DOCS, action,
                RiskLevel.LOW, RiskLevel.LOW, RiskClassification.CALLER_SUPPLIED, false, Decision.ALLOW,
                "default for low risk", null, null, null, "agent-1", "Agent One", null, null, null,
                ActionSource.EVALUATE, "{}", false, 2));
    }

    /**
     * The event sealed as the next entry of this workspace's Merkle log, as the decision stream seals it (the leaf here is
     * of the event id: the projection stores leaves, it does not recompute them); {@code entry} the encoded entry of kinds
     * without an audit row, else null.
     */
    EventEnvelope sealed(EventEnvelope envelope, String entry) {
        long sequence = merkle.size();
        byte[] leaf = hasher.leaf(envelope.eventId().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        java.util.List<String> nodes = merkle.append(leaf, hasher).stream().map(io.agentgateway.evidence.Hashes::base64).toList();
        String digest = io.agentgateway.evidence.Hashes.sha256Hex(envelope.eventId());
        return envelope.withSeal(new io.agentgateway.schemas.event.EvidenceSeal(sequence,
                io.agentgateway.evidence.Hashes.base64(leaf), nodes, digest, digest, entry));
    }

    EventEnvelope sealed(EventEnvelope envelope) {
        return sealed(envelope, null);
    }

    /** The erasure of an audit row's payload, sealed as an entry of its own (with its encoded entry, as the stream seals it). */
    EventEnvelope sealedErasure(String auditLogId) {
        io.agentgateway.evidence.Entry entry = io.agentgateway.evidence.Entry.of(io.agentgateway.evidence.EntryKinds.AUDIT_PAYLOAD_ERASED,
                java.util.Map.of(io.agentgateway.evidence.EntryFields.SEQUENCE, Long.toString(merkle.size()),
                        io.agentgateway.evidence.EntryFields.WORKSPACE_ID, workspaceId,
                        io.agentgateway.evidence.EntryFields.AUDIT_LOG_ID, auditLogId));
        return sealed(record(c -> new io.agentgateway.schemas.event.AuditPayloadErased(auditLogId, "privacy request")),
                java.util.Base64.getEncoder().encodeToString(entry.encode()));
    }

    /** A checkpoint of this workspace's log as it stands (unsigned: the projection does not check signatures). */
    EventEnvelope checkpoint() {
        io.agentgateway.evidence.Checkpoint checkpoint = new io.agentgateway.evidence.Checkpoint("test/" + workspaceId,
                merkle.size(), merkle.root(hasher));
        return record(c -> new io.agentgateway.schemas.event.CheckpointIssued(checkpoint.origin(), checkpoint.size(),
                io.agentgateway.evidence.Hashes.base64(checkpoint.rootHash()), checkpoint.body(), null));
    }

    /** The log's size: the sequence the next sealed event gets. */
    long sealedEntries() {
        return merkle.size();
    }

    private final io.agentgateway.evidence.CompactRange merkle = io.agentgateway.evidence.CompactRange.empty();
    private final io.agentgateway.evidence.MerkleHasher hasher = new io.agentgateway.evidence.MerkleHasher();

    private EventEnvelope envelope(long workspaceVersion, Function<String, DomainEvent> event) {
        String commandId = UUID.randomUUID().toString();
        return new EventEnvelope(EventEnvelope.CURRENT_VERSION, DerivedIds.eventId(commandId, 0), workspaceId, commandId,
                UUID.randomUUID().toString(), occurredAt != null ? occurredAt : Instant.now().truncatedTo(ChronoUnit.MILLIS), actor, workspaceVersion,
                policySetVersion, event.apply(commandId));
    }
}
