package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.state.Member;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.RemoveMember;
import io.agentgateway.schemas.event.MemberRemoved;
import java.util.Optional;

/** Removes a member; removing an owner needs an owner, and the last owner stays. */
final class RemoveMemberHandler implements CommandHandler<RemoveMember> {
    private final CommandAuthorizer authorizer;

    public RemoveMemberHandler(CommandAuthorizer authorizer) {
        this.authorizer = authorizer;
    }

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, RemoveMember command) {
        if (Validation.blank(command.userId())) {
            return CommandResult.invalid(state, "userId is required");
        }
        Optional<Member> current = state.member(command.userId());
        if (current.isEmpty()) {
            return CommandResult.rejected(state, ReplyStatus.NOT_FOUND, "Member not found");
        }
        if (current.get().role() == Role.OWNER) {
            if (!authorizer.isOwner(state, envelope.actor())) {
                return CommandResult.rejected(state, ReplyStatus.FORBIDDEN, "Owner role required to remove an owner");
            }
            if (state.ownerCount() <= 1) {
                return CommandResult.rejected(state, ReplyStatus.CONFLICT, "The last owner cannot be removed");
            }
        }
        return CommandResult.accepted(state.withoutMember(command.userId()), new MemberRemoved(command.userId()));
    }
}
