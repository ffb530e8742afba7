package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.condition.ConditionProblem;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.LimitRefusal;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.event.PolicyUpserted;
import java.util.Optional;

/**
 * Creates or replaces a policy. A policy without a match applies to every action, so it is stored as
 * match-any. A policy's condition must compile (CEL, type-checked against the declared variables, within the
 * condition limits): one that does not is refused (invalid), in log order, whatever the admin API checked before; the
 * new policy set links its compiled conditions here, so no decision compiles. A workspace holds at most {@code limits.policies} policies of at most
 * {@code limits.policyBytes} each (as JSON): every evaluation reads them all.
 */
final class UpsertPolicyHandler implements CommandHandler<UpsertPolicy> {
    private final DecisionLimits limits;
    private final ConditionEnvironment conditions;

    public UpsertPolicyHandler(DecisionLimits limits, ConditionEnvironment conditions) {
        this.limits = limits;
        this.conditions = conditions;
    }

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, UpsertPolicy command) {
        Policy policy = command.policy();
        if (policy == null) {
            return CommandResult.invalid(state, "policy is required");
        }
        if (!Validation.isUuid(policy.id())) {
            return CommandResult.invalid(state, "policy.id must be a lower-case UUID");
        }
        if (Validation.blank(policy.name())) {
            return CommandResult.invalid(state, "policy.name is required");
        }
        if (policy.decision() == null) {
            return CommandResult.invalid(state, "policy.decision must be one of allow, block, require_approval");
        }
        if (policy.condition() != null) {
            Optional<ConditionProblem> problem = conditions.check(policy.condition());
            if (problem.isPresent()) {
                return CommandResult.invalid(state, problem.get().describe());
            }
        }
        Policy stored = policy.match() == null ? policy.withMatch(PolicyMatch.any()) : policy;
        int bytes = GatewayJson.MAPPER.writeValueAsBytes(stored).length;
        if (bytes > limits.policyBytes()) {
            return LimitRefusal.refuse(envelope, state, DecisionLimits.POLICY_BYTES, limits.policyBytes(),
                    "policy is " + bytes + " bytes as JSON, over the limit of " + limits.policyBytes()
                            + " bytes per policy (gateway.decision.limits.policy-bytes): split it or shorten its lists");
        }
        if (!state.policies().containsKey(stored.id()) && state.policies().size() >= limits.policies()) {
            return LimitRefusal.refuse(envelope, state, DecisionLimits.POLICIES, limits.policies(),
                    "Workspace holds its limit of " + limits.policies() + " policies (gateway.decision.limits.policies):"
                            + " delete a policy first");
        }
        WorkspaceState next = state.withPolicy(stored);
        next.config().policies().conditions(conditions);
        return CommandResult.accepted(next, new PolicyUpserted(stored));
    }
}
