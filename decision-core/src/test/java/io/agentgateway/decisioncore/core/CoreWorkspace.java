package io.agentgateway.decisioncore.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.decisioncore.state.InMemoryWorkspace;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.event.DomainEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * One workspace decided by the core alone, as the topology would decide it minus its stores: an
 * {@link InMemoryWorkspace}, a {@link DecisionCore}, an owner, a clock that advances one second per command and
 * an API key with the evaluate scope. Each command returns a {@link Decided}: the core's decision, the records
 * it emits, and the state before and after (as kept, with its versions).
 */
public final class CoreWorkspace {
    static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    public static final String EVALUATE_KEY = "ab".repeat(32);

    final String id = UUID.randomUUID().toString();
    public final Actor owner = Actor.user("owner-1", "owner@example.com");
    public final Actor agent = Actor.apiKey(EVALUATE_KEY, "agent-7");
    public final InMemoryWorkspace memory;
    private final DecisionCore core;
    private Instant now = START;

    private CoreWorkspace(DecisionSettings settings) {
        this.core = new DecisionCore(settings);
        this.memory = new InMemoryWorkspace(settings.approvalTtl());
    }

    /** A created workspace (owner {@link #owner}) holding the evaluate key {@link #EVALUATE_KEY}. */
    public static CoreWorkspace create(DecisionSettings settings) {
        CoreWorkspace workspace = new CoreWorkspace(settings);
        workspace.admin(new CreateWorkspace("Acme")).ok();
        workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "agent key", EVALUATE_KEY, Set.of(Scope.EVALUATE), null)).ok();
        return workspace;
    }

    public static CoreWorkspace create() {
        return create(DecisionSettings.defaults());
    }

    /** A workspace id never created. */
    public static CoreWorkspace absent() {
        return new CoreWorkspace(DecisionSettings.defaults());
    }

    public CommandEnvelope envelope(Actor actor, Command command) {
        CommandEnvelope envelope = new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(), id,
                UUID.randomUUID().toString(), now, 1, actor, command);
        now = now.plusSeconds(1);
        return envelope;
    }

    /** Decides {@code command} of {@code actor} and keeps what it changed. */
    public Decided as(Actor actor, Command command) {
        CommandEnvelope envelope = envelope(actor, command);
        WorkspaceState before = memory.state();
        CommandDecision decision = core.decide(envelope, before);
        WorkspaceState after = memory.save(before, decision.state());
        return new Decided(envelope, decision, decision.outcome(after), before, after);
    }

    /**
     * Decides the ingress's {@code RecordCallerGaveUp} of {@code actor} for {@code given}'s attempt, handing the core
     * {@code recorded} as the decision recorded for it (what the topology finds in its processed commands), and keeps
     * what it changed.
     */
    Decided gaveUp(Actor actor, Decided given, io.agentgateway.schemas.event.ActionEvaluated recorded, int answeredStatus) {
        CommandEnvelope envelope = envelope(actor, new io.agentgateway.schemas.command.RecordCallerGaveUp(
                given.envelope().commandId(), given.envelope().acceptedAt(), answeredStatus));
        WorkspaceState before = memory.state();
        CommandDecision decision = core.decideCallerGaveUp(envelope, before, recorded, null);
        WorkspaceState after = memory.save(before, decision.state());
        return new Decided(envelope, decision, decision.outcome(after), before, after);
    }

    public Decided admin(Command command) {
        return as(owner, command);
    }

    public Decided evaluate(EvaluateAction action) {
        return as(agent, action);
    }

    public Decided evaluate(Tool tool, String action, RiskLevel risk) {
        return evaluate(action(tool, action, risk));
    }

    /** Adds a member with {@code role} (by the owner) and returns it as an actor. */
    public Actor member(String userId, Role role) {
        admin(new SetMember(userId, userId + "@example.com", role)).ok();
        return Actor.user(userId, userId + "@example.com");
    }

    public WorkspaceState state() {
        return memory.state();
    }

    public Instant now() {
        return now;
    }

    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    /** An evaluation with the usual defaults (agent-7, source evaluate, scope evaluate). */
    public static EvaluateAction action(Tool tool, String action, RiskLevel risk) {
        return new EvaluateAction(tool, action, risk, "agent-7", "Agent Seven", null, null, null, "someone@example.com",
                ActionSource.EVALUATE, Scope.EVALUATE, false);
    }

    /** One decided command: the core's decision, what it emits, and the state before and after (as kept). */
    public record Decided(CommandEnvelope envelope, CommandDecision decision, Outcome outcome, WorkspaceState before,
                   WorkspaceState after) {

        public ReplyStatus status() {
            return decision.status();
        }

        public List<DomainEvent> events() {
            return decision.events();
        }

        public <T extends DomainEvent> T event(int index, Class<T> type) {
            assertThat(events()).hasSizeGreaterThan(index);
            return type.cast(events().get(index));
        }

        public Decided ok() {
            assertThat(decision.status()).as(decision.error()).isEqualTo(ReplyStatus.OK);
            return this;
        }

        /** Refused with {@code status} and {@code error}: nothing emitted, nobody notified, the state unchanged. */
        public Decided refused(ReplyStatus status, String error) {
            assertThat(decision.status()).isEqualTo(status);
            assertThat(decision.error()).isEqualTo(error);
            assertThat(decision.events()).isEmpty();
            assertThat(decision.notifications()).isEmpty();
            assertThat(after).isSameAs(before);
            return this;
        }
    }
}
