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
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.event.MemberSet;
import java.util.Optional;

/**
 * Adds a member or changes its role or email. Ownership is guarded: only an owner may make someone an
 * owner or change an owner's role, and the last owner cannot be demoted (a workspace without owner
 * could never be administered back to health).
 */
final class SetMemberHandler implements CommandHandler<SetMember> {
    private final CommandAuthorizer authorizer;

    public SetMemberHandler(CommandAuthorizer authorizer) {
        this.authorizer = authorizer;
    }

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, SetMember command) {
        if (Validation.blank(command.userId())) {
            return CommandResult.invalid(state, "userId is required");
        }
        if (command.role() == null) {
            return CommandResult.invalid(state, "role must be one of owner, admin, member, reviewer, viewer");
        }
        Optional<Member> current = state.member(command.userId());
        boolean touchesOwnership = command.role() == Role.OWNER
                || current.map(m -> m.role() == Role.OWNER).orElse(false);
        if (touchesOwnership && !authorizer.isOwner(state, envelope.actor())) {
            return CommandResult.rejected(state, ReplyStatus.FORBIDDEN, "Owner role required to grant or change the owner role");
        }
        boolean demotesOwner = current.map(m -> m.role() == Role.OWNER).orElse(false) && command.role() != Role.OWNER;
        if (demotesOwner && state.ownerCount() <= 1) {
            return CommandResult.rejected(state, ReplyStatus.CONFLICT, "The last owner cannot be demoted");
        }
        String email = command.email() != null ? command.email() : current.map(Member::email).orElse(null);
        return CommandResult.accepted(state.withMember(command.userId(), new Member(email, command.role())),
                new MemberSet(command.userId(), email, command.role()));
    }
}
