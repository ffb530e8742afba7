package io.agentgateway.decision.core;

import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.event.PolicyUpserted;

/**
 * Creates or replaces a policy. A policy without a match applies to every action, so it is stored as
 * match-any. A workspace holds at most {@code limits.policies} policies of at most
 * {@code limits.policyBytes} each (as JSON): every evaluation reads them all.
 */
final class UpsertPolicyHandler implements CommandHandler<UpsertPolicy> {
    private final DecisionLimits limits;

    public UpsertPolicyHandler(DecisionLimits limits) {
        this.limits = limits;
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
        Policy stored = policy.match() == null
                ? new Policy(policy.id(), policy.name(), policy.priority(), policy.enabled(), policy.decision(),
                        PolicyMatch.any(), policy.description())
                : policy;
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
        return CommandResult.accepted(state.withPolicy(stored), new PolicyUpserted(stored));
    }
}
