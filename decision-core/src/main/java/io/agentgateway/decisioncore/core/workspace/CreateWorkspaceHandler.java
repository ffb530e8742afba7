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
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.event.WorkspaceCreated;

/** Creates the envelope's workspace with its named owner (else the issuing user) as its first owner. */
final class CreateWorkspaceHandler implements CommandHandler<CreateWorkspace> {

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, CreateWorkspace command) {
        if (!CommandAuthorizer.isUser(envelope.actor())) {
            return CommandResult.rejected(state, ReplyStatus.FORBIDDEN, "A signed-in user is required to create a workspace");
        }
        if (!Validation.isUuid(envelope.workspaceId())) {
            return CommandResult.invalid(state, "workspaceId must be a lower-case UUID");
        }
        if (Validation.blank(command.name())) {
            return CommandResult.invalid(state, "name is required");
        }
        if (state.exists()) {
            return CommandResult.rejected(state, ReplyStatus.CONFLICT, "Workspace already exists");
        }
        // an operator creates a workspace for its first owner; otherwise the issuing user owns it
        boolean forSomeoneElse = !Validation.blank(command.ownerUserId());
        String ownerId = forSomeoneElse ? command.ownerUserId().trim() : envelope.actor().userId();
        String ownerEmail = forSomeoneElse ? command.ownerEmail() : envelope.actor().email();
        String name = command.name().trim();
        WorkspaceState created = state.created(name, ownerId, new Member(ownerEmail, Role.OWNER));
        return CommandResult.accepted(created,
                new WorkspaceCreated(name, ownerId, ownerEmail),
                new MemberSet(ownerId, ownerEmail, Role.OWNER));
    }
}
