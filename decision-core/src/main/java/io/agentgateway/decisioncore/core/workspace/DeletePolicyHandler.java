package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.event.PolicyDeleted;

final class DeletePolicyHandler implements CommandHandler<DeletePolicy> {

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, DeletePolicy command) {
        if (Validation.blank(command.policyId())) {
            return CommandResult.invalid(state, "policyId is required");
        }
        if (!state.policies().containsKey(command.policyId())) {
            return CommandResult.rejected(state, ReplyStatus.NOT_FOUND, "Policy not found");
        }
        return CommandResult.accepted(state.withoutPolicy(command.policyId()), new PolicyDeleted(command.policyId()));
    }
}
