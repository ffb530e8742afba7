package io.agentgateway.decision.evaluation;

import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import java.util.Optional;

/**
 * The decision order of DESIGN.md: the workspace kill switch, then a paused tool, then the first
 * enabled matching policy (priority, then id), then the workspace default for the risk level.
 */
public final class ActionDecider {
    private final PolicyMatcher matcher = new PolicyMatcher();

    public Verdict decide(WorkspaceState state, ActionRequest request) {
        return killSwitch(state)
                .or(() -> pausedTool(state, request))
                .or(() -> firstMatchingPolicy(state, request))
                .orElseGet(() -> workspaceDefault(state, request));
    }

    private static Optional<Verdict> killSwitch(WorkspaceState state) {
        return state.killSwitchEnabled()
                ? Optional.of(new Verdict(Decision.BLOCK, "Workspace kill switch is enabled", null))
                : Optional.empty();
    }

    private static Optional<Verdict> pausedTool(WorkspaceState state, ActionRequest request) {
        return state.pausedTools().contains(request.tool())
                ? Optional.of(new Verdict(Decision.BLOCK, "Tool " + request.tool().wire() + " is paused", null))
                : Optional.empty();
    }

    private Optional<Verdict> firstMatchingPolicy(WorkspaceState state, ActionRequest request) {
        for (Policy policy : state.enabledPoliciesInOrderFor(request.tool())) {
            if (matcher.matches(policy.match(), request)) {
                return Optional.of(new Verdict(policy.decision(), reasonFor(policy), policy));
            }
        }
        return Optional.empty();
    }

    private static String reasonFor(Policy policy) {
        return "Matched policy \"" + policy.name() + "\": " + policy.decision().wire();
    }

    private static Verdict workspaceDefault(WorkspaceState state, ActionRequest request) {
        Decision decision = state.defaults().get(request.riskLevel());
        return new Verdict(decision,
                "No policy matched; workspace default for " + request.riskLevel().wire() + " risk is " + decision.wire(),
                null);
    }
}
