package io.agentgateway.backtest;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.WorkspaceCreated;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A workspace's events written by hand, the way the decision stream stamps them: one second per
 * command, the workspace version bumped by every state change (an evaluation only when it opens an
 * approval), the policy-set version by policy and defaults changes.
 */
final class RecordedHistory {
    static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

    final String workspaceId = UUID.randomUUID().toString();
    final List<EventEnvelope> events = new ArrayList<>();
    private final Actor owner = Actor.user("owner-1", "owner@example.com");
    private Instant now = START;
    private long version;
    private long policySetVersion;

    RecordedHistory created() {
        String commandId = UUID.randomUUID().toString();
        version++;
        add(commandId, 0, new WorkspaceCreated("Acme", "owner-1", "owner@example.com"));
        add(commandId, 1, new MemberSet("owner-1", "owner@example.com", Role.OWNER));
        return tick();
    }

    RecordedHistory killSwitch(KillSwitchAction action, Tool tool, boolean enabled, Set<Tool> paused) {
        version++;
        add(UUID.randomUUID().toString(), 0, new KillSwitchChanged(UUID.randomUUID().toString(), action, tool, enabled, paused));
        return tick();
    }

    RecordedHistory policy(Policy policy) {
        version++;
        policySetVersion++;
        add(UUID.randomUUID().toString(), 0, new PolicyUpserted(policy));
        return tick();
    }

    RecordedHistory deletePolicy(String policyId) {
        version++;
        policySetVersion++;
        add(UUID.randomUUID().toString(), 0, new PolicyDeleted(policyId));
        return tick();
    }

    RecordedHistory defaults(RiskLevel risk, Decision decision) {
        version++;
        policySetVersion++;
        Map<RiskLevel, Decision> all = new EnumMap<>(io.agentgateway.decisioncore.state.BuiltInDefaults.decisions());
        all.put(risk, decision);
        add(UUID.randomUUID().toString(), 0, new WorkspaceDefaultsSet(all, Duration.ofHours(24)));
        return tick();
    }

    /** Records an evaluation as decided (risk caller-supplied unless the tool classifies it), returning its envelope. */
    EventEnvelope evaluated(Tool tool, String action, RiskLevel risk, String agentId, Decision decision, String reason,
                            Policy matched) {
        return evaluated(tool, action, risk, risk, tool == Tool.CODE_HOST || tool == Tool.ISSUE_TRACKER
                ? RiskClassification.SERVER_CLASSIFIED : RiskClassification.CALLER_SUPPLIED, agentId, decision, reason, matched);
    }

    EventEnvelope evaluated(Tool tool, String action, RiskLevel risk, RiskLevel supplied, RiskClassification classification,
                            String agentId, Decision decision, String reason, Policy matched) {
        String commandId = UUID.randomUUID().toString();
        String approvalId = decision == Decision.REQUIRE_APPROVAL ? UUID.randomUUID().toString() : null;
        if (approvalId != null) {
            version++;
        }
        EventEnvelope envelope = add(commandId, 0, new ActionEvaluated(UUID.randomUUID().toString(), tool, action, risk, supplied,
                classification, false, decision, reason, matched == null ? null : matched.id(),
                matched == null ? null : matched.name(), approvalId, agentId, null, null, null, null, ActionSource.EVALUATE,
                "{}", false, 2));
        tick();
        return envelope;
    }

    /** An evaluation the open-approvals limit turned from require_approval into a block (no approval opened). */
    EventEnvelope limited(Tool tool, String action, RiskLevel risk, String agentId, String reason, Policy matched) {
        EventEnvelope envelope = add(UUID.randomUUID().toString(), 0, new ActionEvaluated(UUID.randomUUID().toString(), tool,
                action, risk, risk, RiskClassification.CALLER_SUPPLIED, false, Decision.BLOCK, reason,
                matched == null ? null : matched.id(), matched == null ? null : matched.name(), null, agentId, null, null, null,
                null, ActionSource.EVALUATE, "{}", false, 2, "open_approvals", null));
        tick();
        return envelope;
    }

    /** Appends an exact copy of an earlier event, as a redelivered command's re-emitted outcome. */
    RecordedHistory reEmit(EventEnvelope earlier) {
        events.add(earlier);
        return this;
    }

    /** Moves the workspace version as a change the log does not show would. */
    RecordedHistory unseenChange() {
        version++;
        return this;
    }

    Instant now() {
        return now;
    }

    static Policy policy(String name, int priority, Decision decision, PolicyMatch match) {
        return new Policy(UUID.randomUUID().toString(), name, priority, true, decision, match, null);
    }

    static PolicyMatch tools(Tool... tools) {
        return new PolicyMatch(Set.of(tools), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of());
    }

    static PolicyMatch agents(String... globs) {
        return new PolicyMatch(Set.of(), List.of(), Set.of(), List.of(globs), List.of(), List.of(), Set.of());
    }

    static String matched(Policy policy) {
        return "Matched policy \"" + policy.name() + "\": " + policy.decision().wire();
    }

    static String byDefault(RiskLevel risk, Decision decision) {
        return "No policy matched; workspace default for " + risk.wire() + " risk is " + decision.wire();
    }

    private EventEnvelope add(String commandId, int index, DomainEvent event) {
        EventEnvelope envelope = new EventEnvelope(EventEnvelope.CURRENT_VERSION,
                io.agentgateway.schemas.DerivedIds.eventId(commandId, index), workspaceId, commandId,
                UUID.randomUUID().toString(), now, owner, version, policySetVersion, event);
        events.add(envelope);
        return envelope;
    }

    private RecordedHistory tick() {
        now = now.plusSeconds(1);
        return this;
    }
}
