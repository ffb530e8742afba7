package io.agentgateway.backtest;

import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;

/**
 * Rebuilds, from a workspace's events in log order, the {@link WorkspaceState} the decision stream held
 * at each point: the same {@code with...} changes its handlers make, driven by the events those handlers
 * emitted. Only what an evaluation's verdict reads is rebuilt (kill switch, paused tools, policies with their
 * conditions, defaults and the time zone conditions read the time in): members, keys and approvals never change a decision. Each of these events carries the
 * complete value after the change (the switch and the paused tools, the whole policy, every default),
 * so the fold needs no knowledge of the commands behind them.
 */
final class DecisionInputsFold {

    /** Whether {@code event} changes anything an evaluation's verdict reads. */
    static boolean changesDecisionInputs(DomainEvent event) {
        return event instanceof KillSwitchChanged || event instanceof PolicyUpserted
                || event instanceof PolicyDeleted || event instanceof WorkspaceDefaultsSet;
    }

    /** The state after {@code event}; events that change no decision input leave it as it is. */
    WorkspaceState apply(WorkspaceState state, DomainEvent event) {
        if (event instanceof KillSwitchChanged changed) {
            return state.withKillSwitch(changed.killSwitchEnabled(), changed.pausedTools());
        }
        if (event instanceof PolicyUpserted upserted) {
            return state.withPolicy(requirePolicy(upserted));
        }
        if (event instanceof PolicyDeleted deleted) {
            return state.withoutPolicy(deleted.policyId());
        }
        if (event instanceof WorkspaceDefaultsSet defaults) {
            WorkspaceState next = state.withDefaults(defaults.decisions(), defaults.approvalTtl());
            // records before time zones carry none: the workspace was in UTC
            return next.withTimeZone(defaults.timeZone());
        }
        return state;
    }

    private static Policy requirePolicy(PolicyUpserted upserted) {
        if (upserted.policy() == null || upserted.policy().id() == null || upserted.policy().decision() == null) {
            throw new IllegalArgumentException("policy_upserted without a policy id and decision");
        }
        return upserted.policy();
    }
}
