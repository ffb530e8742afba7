package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.event.ApiKeyRevoked;
import java.util.Optional;

/**
 * Revokes a key from its acceptedAt on: every command after it in the log sees the key revoked.
 * Revoking a revoked key is answered ok and changes nothing (the first revocation time stands).
 */
final class RevokeApiKeyHandler implements CommandHandler<RevokeApiKey> {

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, RevokeApiKey command) {
        if (Validation.blank(command.keyId())) {
            return CommandResult.invalid(state, "keyId is required");
        }
        Optional<String> hash = state.apiKeyHashOf(command.keyId());
        if (hash.isEmpty()) {
            return CommandResult.rejected(state, ReplyStatus.NOT_FOUND, "API key not found");
        }
        ApiKeyGrant grant = state.apiKeyByHash(hash.get()).orElse(null);
        if (grant == null) {
            // an id entry without its key: never written so, but a lookup that finds nothing is "not found"
            return CommandResult.rejected(state, ReplyStatus.NOT_FOUND, "API key not found");
        }
        if (grant.revokedAt() != null) {
            return CommandResult.accepted(state);
        }
        return CommandResult.accepted(state.withApiKey(hash.get(), grant.revokedAt(envelope.acceptedAt())),
                new ApiKeyRevoked(command.keyId()));
    }
}
