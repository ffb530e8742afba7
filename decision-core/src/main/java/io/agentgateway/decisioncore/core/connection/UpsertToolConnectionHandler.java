package io.agentgateway.decisioncore.core.connection;

import io.agentgateway.classification.ClassificationRuleChecks;
import io.agentgateway.classification.ConnectionField;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.ConnectionVersions;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.LimitRefusal;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.secret.SealedSecret;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Creates or replaces a tool connection. The non-secret fields are replaced as given; the secrets are
 * kept, replaced or cleared as the command says. The event carries the whole connection after the
 * change, secrets sealed, for the read model the proxy, the MCP gate and the webhooks read.
 */
final class UpsertToolConnectionHandler implements CommandHandler<UpsertToolConnection> {
    static final String TOOL_MESSAGE = "tool must be one of: " + ToolProfiles.wireNames();

    private final int repositoriesLimit;

    public UpsertToolConnectionHandler(int repositoriesLimit) {
        this.repositoriesLimit = repositoriesLimit;
    }

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, UpsertToolConnection command) {
        Tool tool = command.tool();
        if (tool == null) {
            return CommandResult.invalid(state, TOOL_MESSAGE);
        }
        // List.of().contains(null) throws, so nulls are looked for one by one
        ToolConnectionConfig given = command.config() == null ? ToolConnectionConfig.none() : command.config();
        if (given.repos() != null && given.repos().stream().anyMatch(Objects::isNull)) {
            return CommandResult.invalid(state, "config.repos entries must have the form owner/repo");
        }
        Optional<String> secretProblem = SecretUpdates.problem(command.accessToken(), "config.access_token")
                .or(() -> SecretUpdates.problem(command.webhookSecret(), "webhook_secret"));
        if (secretProblem.isPresent()) {
            return CommandResult.invalid(state, secretProblem.get());
        }

        Optional<ToolConnection> current = state.toolConnection(tool);
        SealedSecret accessToken = SecretUpdates.apply(command.accessToken(),
                current.map(ToolConnection::accessToken).orElse(null));
        SealedSecret webhookSecret = SecretUpdates.apply(command.webhookSecret(),
                current.map(ToolConnection::webhookSecret).orElse(null));
        Optional<String> rulesProblem = ClassificationRuleChecks.problem(tool, given.rules());
        if (rulesProblem.isPresent()) {
            // before the copy below, which cannot hold a null rule
            return CommandResult.invalid(state, rulesProblem.get());
        }
        ToolConnectionConfig config = new ToolConnectionConfig(
                given.repos() == null ? List.of() : List.copyOf(given.repos()),
                given.org(), given.organizationId(), given.teamId(), List.copyOf(given.rules()));
        // spec section 2: bearer is the default way of presenting an MCP token
        McpAuthType authType = ToolProfiles.of(tool).takes(ConnectionField.MCP_AUTH_TYPE) && command.mcpAuthType() == null
                ? McpAuthType.BEARER : command.mcpAuthType();
        ToolConnection next = new ToolConnection(tool, config, accessToken, webhookSecret, command.mcpServerUrl(),
                authType, command.mcpTransport(), command.baseUrl(), ConnectionVersions.next(state));

        Optional<String> problem = ToolConnectionRules.problem(next);
        if (problem.isPresent()) {
            return CommandResult.invalid(state, problem.get());
        }
        if (config.repos().size() > repositoriesLimit) {
            return LimitRefusal.refuse(envelope, state, DecisionLimits.REPOSITORIES_PER_CONNECTION, repositoriesLimit,
                    "config.repos lists " + config.repos().size() + " repositories, over the limit of " + repositoriesLimit
                            + " per connection (gateway.decision.limits.repositories-per-connection)");
        }
        return CommandResult.accepted(state.withToolConnection(next), new ToolConnectionUpserted(next));
    }
}
