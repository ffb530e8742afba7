package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.evaluation.ActionDecider;
import io.agentgateway.decisioncore.evaluation.Explanation;
import io.agentgateway.decisioncore.evaluation.ActionRequest;
import io.agentgateway.decisioncore.evaluation.Verdict;
import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.decisioncore.state.InMemoryWorkspace;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.event.ActionEvaluated;

/**
 * The decision core's entry point: decides one command against one workspace's state, a pure function (no
 * I/O, no clock: time is the envelope's {@code acceptedAt}; ids derive from the command id). Its drivers are
 * the decision stream's topology (state from its stores), the back-test (state folded from the events log)
 * and the benchmark's decided histories ({@link InMemoryWorkspace}).
 *
 * <p>The caller checks the envelope's required fields first (the topology's {@code EnvelopeCheck}), keeps
 * what the decision changed ({@link CommandDecision#state()}, versioned by the store: {@link InMemoryWorkspace#save},
 * the topology's {@code WorkspaceStores.save}) and then takes the records to emit from
 * {@link CommandDecision#outcome(WorkspaceState)}, given the state as kept. One instance per settings; thread-safe
 * as long as the states handed in are not shared.
 */
public final class DecisionCore {
    private final CommandHandlers handlers;
    private final ActionDecider decider;

    public DecisionCore(DecisionSettings settings) {
        this.handlers = new CommandHandlers(settings);
        this.decider = new ActionDecider(ConditionEnvironment.of(settings.conditions()));
    }

    /**
     * Decides {@code envelope}'s command against {@code state}, the workspace as it was before it. A handler's
     * failure (a bug of ours) is thrown: the topology answers it "internal error" and writes nothing.
     */
    public CommandDecision decide(CommandEnvelope envelope, WorkspaceState state) {
        return new CommandDecision(envelope, state, handlers.handle(envelope, state));
    }

    /**
     * Decides a {@code RecordCallerGaveUp} (the ingress answered an evaluation's caller 503/504) against
     * {@code state}, given the audit entry recorded for the attempt it names ({@code recorded}, null when none was:
     * the caller's store of decided commands says, the topology's processed commands) and the command id it was
     * decided under ({@code recordedUnder}; null: the evaluation's own).
     * A decision made in time is then recorded as undelivered and the approval it opened ends if still pending;
     * anything else is a no-op. See {@code CallerGaveUpHandler}.
     */
    public CommandDecision decideCallerGaveUp(CommandEnvelope envelope, WorkspaceState state, ActionEvaluated recorded,
                                              String recordedUnder) {
        return new CommandDecision(envelope, state, handlers.handleCallerGaveUp(envelope, state, recorded, recordedUnder));
    }

    /**
     * Decides {@code envelope}'s command against the workspace held in memory, keeps what it changed and returns
     * what is emitted: what the topology does for one command, without its stores, dedupe and deadline.
     */
    public Outcome decide(CommandEnvelope envelope, InMemoryWorkspace workspace) {
        WorkspaceState before = workspace.state();
        CommandDecision decision = decide(envelope, before);
        return decision.outcome(workspace.save(before, decision.state()));
    }

    /**
     * What the evaluation of {@code request} decides under {@code state}'s kill switch, pauses, policies and
     * defaults: the rule every evaluating command applies, for the back-test to replay a recorded evaluation.
     */
    public Verdict verdict(WorkspaceState state, ActionRequest request) {
        return decider.decide(state, request);
    }

    /**
     * The verdict of {@link #verdict} explained policy by policy: whether each enabled policy's lists match and what its
     * condition evaluates to (the admin API's policy test).
     */
    public Explanation explain(WorkspaceState state, ActionRequest request) {
        return decider.explain(state, request);
    }

    /** The conditions of this core's settings: compile and check a policy's condition as the core will. */
    public ConditionEnvironment conditions() {
        return decider.conditions();
    }
}
