package io.agentgateway.decisioncore.evaluation;

import io.agentgateway.decisioncore.condition.CompiledCondition;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.condition.ConditionInput;
import io.agentgateway.decisioncore.condition.ConditionLimits;
import io.agentgateway.decisioncore.condition.ConditionScope;
import io.agentgateway.decisioncore.condition.ConditionValue;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ConditionError;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decision order of DESIGN.md: the workspace kill switch, then a paused tool, then the first enabled matching
 * policy (priority, then id), then the workspace default for the risk level. A policy matches when its lists match
 * (the per-tool index first, then {@link PolicyMatcher}) and, if it has one, its condition is true. A condition
 * that cannot be evaluated (a missing key, a wrong type, the iteration budget, arguments over the size a condition
 * may read) fails closed: it counts as a match for a {@code block} or {@code require_approval} policy and as no match
 * for an {@code allow} policy, and the verdict names it ({@link Verdict#conditionErrors()}).
 */
public final class ActionDecider {
    private final PolicyMatcher matcher = new PolicyMatcher();
    private final ConditionEnvironment conditions;

    public ActionDecider(ConditionEnvironment conditions) {
        this.conditions = conditions;
    }

    /** With the default condition limits. */
    public ActionDecider() {
        this(ConditionEnvironment.of(ConditionLimits.defaults()));
    }

    public ConditionEnvironment conditions() {
        return conditions;
    }

    public Verdict decide(WorkspaceState state, ActionRequest request) {
        return killSwitch(state)
                .or(() -> pausedTool(state, request))
                .orElseGet(() -> policiesThenDefault(state, request));
    }

    /**
     * Whether {@code request} is blocked whatever its conditions find (an MCP tools/list asks this for each listed
     * tool, whose call's arguments it cannot know): a conditional {@code block} policy may not match, so it is passed
     * over; a conditional policy that would allow or hold may match, so the call is not blocked outright.
     */
    public boolean blockedWhateverTheConditions(WorkspaceState state, ActionRequest request) {
        if (killSwitch(state).isPresent() || pausedTool(state, request).isPresent()) {
            return true;
        }
        for (Policy policy : state.enabledPoliciesInOrderFor(request.tool())) {
            if (!matcher.matches(policy.match(), request)) {
                continue;
            }
            if (!policy.hasCondition()) {
                return policy.decision() == Decision.BLOCK;
            }
            if (policy.decision() != Decision.BLOCK) {
                return false;
            }
        }
        return state.defaults().get(request.riskLevel()) == Decision.BLOCK;
    }

    /**
     * The decision of {@link #decide} together with every enabled policy the tool's index offers, whether its lists
     * match and what its condition evaluates to (every condition is evaluated, also past the deciding policy): the
     * admin API's policy test.
     */
    public Explanation explain(WorkspaceState state, ActionRequest request) {
        Verdict verdict = decide(state, request);
        ConditionScope scope = new ConditionScope(inputOf(state, request), conditions.limits());
        Map<String, CompiledCondition> compiled = state.config().policies().conditions(conditions);
        List<Explanation.PolicyCheck> checks = new ArrayList<>();
        for (Policy policy : state.enabledPoliciesInOrderFor(request.tool())) {
            boolean lists = matcher.matches(policy.match(), request);
            ConditionValue value = policy.hasCondition() ? compiled.get(policy.id()).evaluate(scope) : null;
            checks.add(new Explanation.PolicyCheck(policy, lists, value, policy.id().equals(verdict.matchedPolicyId())));
        }
        return new Explanation(verdict, checks);
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

    private Verdict policiesThenDefault(WorkspaceState state, ActionRequest request) {
        List<ConditionError> errors = null;
        Map<String, CompiledCondition> compiled = null;
        ConditionScope scope = null;
        for (Policy policy : state.enabledPoliciesInOrderFor(request.tool())) {
            if (!matcher.matches(policy.match(), request)) {
                continue;
            }
            if (!policy.hasCondition()) {
                return new Verdict(policy.decision(), reasonFor(policy), policy, errors);
            }
            if (compiled == null) {
                // linked once per policy set (kept with the configuration), never compiled here
                compiled = state.config().policies().conditions(conditions);
                scope = new ConditionScope(inputOf(state, request), conditions.limits());
            }
            ConditionValue value = compiled.get(policy.id()).evaluate(scope);
            if (value.isTrue()) {
                return new Verdict(policy.decision(), reasonFor(policy), policy, errors);
            }
            if (!value.failed()) {
                continue;
            }
            boolean countedAsMatch = policy.decision() != Decision.ALLOW;
            if (errors == null) {
                errors = new ArrayList<>(2);
            }
            errors.add(new ConditionError(policy.id(), policy.name(), value.error(), countedAsMatch));
            if (countedAsMatch) {
                return new Verdict(policy.decision(), reasonFor(policy) + " (its condition could not be evaluated: "
                        + value.error() + "; fail closed)", policy, errors);
            }
        }
        return workspaceDefault(state, request, errors);
    }

    private static ConditionInput inputOf(WorkspaceState state, ActionRequest request) {
        return new ConditionInput(request.tool(), request.action(), request.riskLevel(), request.source(), request.agentId(),
                request.agentIdentity(), request.resourceType(), request.resourceId(), request.facts(), state.timeZone());
    }

    private static String reasonFor(Policy policy) {
        return "Matched policy \"" + policy.name() + "\": " + policy.decision().wire();
    }

    private static Verdict workspaceDefault(WorkspaceState state, ActionRequest request, List<ConditionError> errors) {
        Decision decision = state.defaults().get(request.riskLevel());
        return new Verdict(decision,
                "No policy matched; workspace default for " + request.riskLevel().wire() + " risk is " + decision.wire(),
                null, errors);
    }
}
