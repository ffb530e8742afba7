package io.agentgateway.benchmark.data;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.WorkspaceCreated;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Writes a realistic event history straight onto the events topic, as the decision stream would have
 * written it: a few workspaces with members, keys, defaults and policies, then mostly evaluations
 * (allowed reads, blocked and approval-bound writes with their approval requests, payload excerpts of a
 * few hundred bytes), with policy changes and kill-switch calls in between.
 */
public final class SyntheticEventLog {
    private static final Tool[] TOOLS = {Tool.CODE_HOST, Tool.ISSUE_TRACKER, Tool.CHAT, Tool.DOCS, Tool.MCP};

    private final List<Workspace> workspaces = new ArrayList<>();
    private long auditRows;
    private long approvals;

    private SyntheticEventLog(int workspaceCount) {
        for (int i = 0; i < workspaceCount; i++) {
            workspaces.add(new Workspace(UUID.randomUUID().toString(), i));
        }
    }

    /** Produces {@code events} events over {@code workspaceCount} workspaces; returns what they amount to. */
    public static SyntheticEventLog fill(String bootstrapServers, int events, int workspaceCount) {
        SyntheticEventLog log = new SyntheticEventLog(workspaceCount);
        try (KafkaProducer<String, EventEnvelope> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 10,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"),
                Topics.EVENTS.keySerde().serializer(), Topics.EVENTS.valueSerde().serializer())) {
            List<Future<RecordMetadata>> inFlight = new ArrayList<>();
            int produced = 0;
            for (Workspace ws : log.workspaces) {
                for (EventEnvelope setup : ws.setup()) {
                    inFlight.add(send(producer, setup));
                    produced++;
                }
            }
            for (long n = 0; produced < events; n++) {
                Workspace ws = log.workspaces.get((int) (n % log.workspaces.size()));
                for (EventEnvelope event : log.next(ws, n)) {
                    inFlight.add(send(producer, event));
                    produced++;
                }
                if (inFlight.size() >= 10_000) {
                    await(inFlight);
                }
            }
            await(inFlight);
        }
        return log;
    }

    public long auditRows() {
        return auditRows;
    }

    public long approvals() {
        return approvals;
    }

    private List<EventEnvelope> next(Workspace ws, long n) {
        if (n % 5_000 == 4_999) {
            boolean enable = (n / 5_000) % 2 == 0;
            auditRows++;
            return List.of(ws.stateChange(c -> new KillSwitchChanged(DerivedIds.auditLogId(c),
                    enable ? KillSwitchAction.ENABLE : KillSwitchAction.DISABLE, null, enable, Set.of())));
        }
        if (n % 2_000 == 1_999) {
            return List.of(ws.policyChange(c -> new PolicyUpserted(ws.policy((int) (n % 7), "policy " + n))));
        }
        if (n % 10 == 9) {
            // a merge that needs a review: the evaluation and its approval request, as one command
            auditRows++;
            approvals++;
            String commandId = UUID.randomUUID().toString();
            return List.of(
                    ws.envelope(commandId, 0, ws.version, evaluation(commandId, Tool.CODE_HOST, "pull_request.merge",
                            RiskLevel.HIGH, Decision.REQUIRE_APPROVAL, DerivedIds.approvalId(commandId), n)),
                    ws.envelope(commandId, 1, ws.version, new ApprovalRequested(DerivedIds.approvalId(commandId),
                            DerivedIds.auditLogId(commandId), Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH,
                            "agent-" + (n % 50), "sha256:" + UUID.randomUUID(), Instant.now().plus(Duration.ofHours(24)))));
        }
        auditRows++;
        Tool tool = TOOLS[(int) (n % TOOLS.length)];
        boolean blocked = n % 17 == 0;
        String commandId = UUID.randomUUID().toString();
        return List.of(ws.envelope(commandId, 0, ws.version, evaluation(commandId, tool, blocked ? "repo.delete" : "page.read",
                blocked ? RiskLevel.CRITICAL : RiskLevel.LOW, blocked ? Decision.BLOCK : Decision.ALLOW, null, n)));
    }

    private static ActionEvaluated evaluation(String commandId, Tool tool, String action, RiskLevel risk, Decision decision,
            String approvalId, long n) {
        String payload = "{\"repository\":\"acme/service-" + (n % 40) + "\",\"title\":\"Update dependency " + n
                + "\",\"body\":\"Automated change proposed by the release agent after the nightly scan; see run " + n
                + " for details.\",\"labels\":[\"automated\",\"dependencies\"],\"draft\":false}";
        return new ActionEvaluated(DerivedIds.auditLogId(commandId), tool, action, risk, RiskLevel.LOW,
                RiskClassification.SERVER_CLASSIFIED, false, decision,
                decision == Decision.ALLOW ? "No policy matched; workspace default for low risk is allow"
                        : "Matched policy 'guard " + action + "'",
                decision == Decision.ALLOW ? null : UUID.nameUUIDFromBytes(action.getBytes()).toString(),
                decision == Decision.ALLOW ? null : "guard " + action, approvalId, "agent-" + (n % 50),
                "Release Agent " + (n % 50), "repository", "acme/service-" + (n % 40), "ci-pipeline",
                ActionSource.values()[(int) (n % ActionSource.values().length)], payload, false, payload.length());
    }

    private static Future<RecordMetadata> send(KafkaProducer<String, EventEnvelope> producer, EventEnvelope event) {
        return producer.send(new ProducerRecord<>(Topics.EVENTS.name(), event.workspaceId(), event));
    }

    private static void await(List<Future<RecordMetadata>> inFlight) {
        for (Future<RecordMetadata> ack : inFlight) {
            try {
                ack.get();
            } catch (Exception e) {
                throw new IllegalStateException("the broker did not take an event", e);
            }
        }
        inFlight.clear();
    }

    /** One workspace's versions, as the decision stream counts them. */
    private final class Workspace {
        private static final Actor ADMIN = Actor.user("bench-admin", "admin@bench.local");
        final String id;
        final int index;
        long version;
        long policySetVersion = 1;

        Workspace(String id, int index) {
            this.id = id;
            this.index = index;
        }

        List<EventEnvelope> setup() {
            List<EventEnvelope> setup = new ArrayList<>();
            setup.add(stateChange(c -> new WorkspaceCreated("bench " + index, "bench-owner", "owner@bench.local")));
            setup.add(stateChange(c -> new MemberSet("bench-admin", "admin@bench.local", Role.ADMIN)));
            setup.add(stateChange(c -> new ApiKeyIssued(UUID.randomUUID().toString(), "agents", "sha256:" + UUID.randomUUID(),
                    Set.of(Scope.EVALUATE, Scope.MCP), null)));
            setup.add(policyChange(c -> new WorkspaceDefaultsSet(Map.of(RiskLevel.LOW, Decision.ALLOW, RiskLevel.MEDIUM,
                    Decision.ALLOW, RiskLevel.HIGH, Decision.REQUIRE_APPROVAL, RiskLevel.CRITICAL, Decision.BLOCK),
                    Duration.ofHours(24))));
            for (int p = 0; p < 7; p++) {
                int priority = p;
                setup.add(policyChange(c -> new PolicyUpserted(policy(priority, "policy " + priority))));
            }
            return setup;
        }

        Policy policy(int slot, String name) {
            String id = UUID.nameUUIDFromBytes((this.id + "/" + slot).getBytes()).toString();
            return new Policy(id, name, 10 * (slot + 1), true, slot % 2 == 0 ? Decision.BLOCK : Decision.REQUIRE_APPROVAL,
                    new PolicyMatch(Set.of(TOOLS[slot % TOOLS.length]), List.of("repo.delete", "pull_request.*"),
                            Set.of(RiskLevel.HIGH, RiskLevel.CRITICAL), List.of("agent-*"), List.of(), List.of(), Set.of()),
                    "guards destructive calls");
        }

        EventEnvelope stateChange(java.util.function.Function<String, DomainEvent> event) {
            String commandId = UUID.randomUUID().toString();
            return envelope(commandId, 0, ++version, event.apply(commandId));
        }

        EventEnvelope policyChange(java.util.function.Function<String, DomainEvent> event) {
            policySetVersion++;
            return stateChange(event);
        }

        EventEnvelope envelope(String commandId, int index, long workspaceVersion, DomainEvent event) {
            Actor actor = event instanceof ActionEvaluated || event instanceof ApprovalRequested
                    ? Actor.apiKey("sha256:agents", "agent-1") : ADMIN;
            return new EventEnvelope(EventEnvelope.CURRENT_VERSION, DerivedIds.eventId(commandId, index), id, commandId,
                    UUID.randomUUID().toString(), Instant.now(), actor, workspaceVersion, policySetVersion, event);
        }
    }
}
