package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;

/**
 * Decides one kind of command against the workspace's current state. Pure: no I/O, no clock (time is
 * the envelope's acceptedAt), no randomness (ids derive from the command id).
 */
@FunctionalInterface
public interface CommandHandler<C extends Command> {
    CommandResult handle(CommandEnvelope envelope, WorkspaceState state, C command);
}
