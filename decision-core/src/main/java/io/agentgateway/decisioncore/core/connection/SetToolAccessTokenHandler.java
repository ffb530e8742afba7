package io.agentgateway.decisioncore.core.connection;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.ConnectionVersions;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.SetToolAccessToken;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import java.util.Optional;

/**
 * Stores a token obtained by OAuth (by a tool whose profile has an OAuth app) as the connection's access
 * token. Only the token changes, in log order with every other change of the connection, so an admin's
 * edit accepted just before is kept; a workspace without the connection gets one with nothing else set.
 * Emits {@link ToolConnectionUpserted} with the whole connection, as an upsert does.
 */
final class SetToolAccessTokenHandler implements CommandHandler<SetToolAccessToken> {
    private static final String OAUTH_ONLY = "OAuth access tokens are only for the "
            + ToolProfiles.listed(ToolProfile::connectsByOAuth, "and") + " tools";

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, SetToolAccessToken command) {
        if (command.tool() == null) {
            return CommandResult.invalid(state, UpsertToolConnectionHandler.TOOL_MESSAGE);
        }
        if (!ToolProfiles.of(command.tool()).connectsByOAuth()) {
            return CommandResult.invalid(state, OAUTH_ONLY);
        }
        if (command.accessToken() == null || !command.accessToken().hasSealedForm()) {
            return CommandResult.invalid(state, "accessToken must be sealed with SecretBox");
        }
        ToolConnection current = state.toolConnection(command.tool()).orElseGet(() -> new ToolConnection(command.tool(),
                ToolConnectionConfig.none(), null, null, null, null, null, null));
        ToolConnection next = current.withAccessToken(command.accessToken()).withVersion(ConnectionVersions.next(state));
        Optional<String> problem = ToolConnectionRules.problem(next);
        if (problem.isPresent()) {
            return CommandResult.invalid(state, problem.get());
        }
        return CommandResult.accepted(state.withToolConnection(next), new ToolConnectionUpserted(next));
    }
}
