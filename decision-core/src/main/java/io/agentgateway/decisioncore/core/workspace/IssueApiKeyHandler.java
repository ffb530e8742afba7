package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.LimitRefusal;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.event.ApiKeyIssued;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Registers a key by its hash. The key itself was shown once by the ingress and never enters the log.
 * A workspace holds at most {@code limits.apiKeys} keys, revoked and expired ones included until they
 * leave the state a grace period after they ended.
 */
final class IssueApiKeyHandler implements CommandHandler<IssueApiKey> {
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");
    static final int MAX_AGENT_ID_LENGTH = 256;
    private static final Pattern AGENT_ID = Pattern.compile("[\\x21-\\x7e]{1," + MAX_AGENT_ID_LENGTH + "}");

    private final long apiKeysLimit;
    private final java.time.Duration grace;

    public IssueApiKeyHandler(long apiKeysLimit, java.time.Duration grace) {
        this.apiKeysLimit = apiKeysLimit;
        this.grace = grace;
    }

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, IssueApiKey command) {
        if (!Validation.isUuid(command.keyId())) {
            return CommandResult.invalid(state, "keyId must be a lower-case UUID");
        }
        if (command.keyHash() == null || !SHA256_HEX.matcher(command.keyHash()).matches()) {
            return CommandResult.invalid(state, "keyHash must be the lower-case hex SHA-256 of the key");
        }
        if (command.scopes() == null || command.scopes().isEmpty() || command.scopes().stream().anyMatch(Objects::isNull)) {
            return CommandResult.invalid(state, "scopes must name at least one of evaluate, mcp, proxy");
        }
        if (command.expiresAt() != null && !command.expiresAt().isAfter(envelope.acceptedAt())) {
            return CommandResult.invalid(state, "expiresAt must be in the future");
        }
        String binding = agentBindingProblem(command);
        if (binding != null) {
            return CommandResult.invalid(state, binding);
        }
        if (state.apiKeyByHash(command.keyHash()).isPresent() || state.apiKeyHashOf(command.keyId()).isPresent()) {
            return CommandResult.rejected(state, ReplyStatus.CONFLICT, "API key already exists");
        }
        if (state.apiKeyCount() >= apiKeysLimit) {
            return LimitRefusal.refuse(envelope, state, DecisionLimits.API_KEYS, apiKeysLimit,
                    "Workspace holds its limit of " + apiKeysLimit + " API keys (revoked and expired keys count until "
                            + grace + " after they ended): revoke keys no longer used, or ask the operator to raise "
                            + "gateway.decision.limits.api-keys");
        }
        ApiKeyGrant grant = new ApiKeyGrant(command.keyId(), command.name(), command.scopes(), command.expiresAt(), null,
                command.agentId(), command.agentIdPattern());
        return CommandResult.accepted(state.withApiKey(command.keyHash(), grant),
                new ApiKeyIssued(command.keyId(), command.name(), command.keyHash(), grant.scopes(), command.expiresAt(),
                        command.agentId(), command.agentIdPattern()));
    }

    /** The agent a key is bound to: one id or one pattern, printable and bounded like the ids agents send. */
    static String agentBindingProblem(IssueApiKey command) {
        if (command.agentId() != null && command.agentIdPattern() != null) {
            return "agentId and agentIdPattern cannot both be set: bind the key to one agent id or to one pattern";
        }
        if (command.agentId() != null && !AGENT_ID.matcher(command.agentId()).matches()) {
            return "agentId must be 1 to " + MAX_AGENT_ID_LENGTH + " printable characters without spaces";
        }
        if (command.agentIdPattern() != null && (!AGENT_ID.matcher(command.agentIdPattern()).matches()
                || command.agentIdPattern().chars().allMatch(c -> c == '*'))) {
            return "agentIdPattern must be 1 to " + MAX_AGENT_ID_LENGTH
                    + " printable characters without spaces, with * for any run of characters, and not only *";
        }
        return null;
    }
}
