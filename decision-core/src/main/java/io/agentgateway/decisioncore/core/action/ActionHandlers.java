package io.agentgateway.decisioncore.core.action;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReceiveWebhook;

/**
 * The handlers of the actions the gateway decides (an evaluation, a verified webhook, a key's access check), for
 * {@code CommandHandlers}' table; the handlers themselves stay package-private.
 */
public final class ActionHandlers {
    private ActionHandlers() {}

    public static CommandHandler<EvaluateAction> evaluateAction(DecisionSettings settings, CommandAuthorizer authorizer) {
        return new EvaluateActionHandler(settings, authorizer);
    }

    public static CommandHandler<ReceiveWebhook> receiveWebhook(DecisionSettings settings) {
        return new ReceiveWebhookHandler(settings);
    }

    public static CommandHandler<CheckAccess> checkAccess(CommandAuthorizer authorizer) {
        return new CheckAccessHandler(authorizer);
    }
}
