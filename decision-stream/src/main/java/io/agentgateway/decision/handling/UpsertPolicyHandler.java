package io.agentgateway.decision.handling;

import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.event.PolicyUpserted;

/** Creates or replaces a policy. A policy without a match applies to every action, so it is stored as match-any. */
public final class UpsertPolicyHandler implements CommandHandler<UpsertPolicy> {

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
        return CommandResult.accepted(state.withPolicy(stored), new PolicyUpserted(stored));
    }
}
