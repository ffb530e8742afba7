package io.agentgateway.decisioncore.core;

import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.core.action.ActionHandlers;
import io.agentgateway.decisioncore.core.approval.ApprovalHandlers;
import io.agentgateway.decisioncore.core.connection.ConnectionHandlers;
import io.agentgateway.decisioncore.core.workspace.WorkspaceHandlers;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.EraseAuditPayload;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.command.RecordCallerGaveUp;
import io.agentgateway.schemas.command.RemoveMember;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.command.SendTestNotification;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.command.SetNotificationSettings;
import io.agentgateway.schemas.command.SetToolAccessToken;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.command.WithdrawApproval;
import io.agentgateway.schemas.event.ActionEvaluated;
import java.util.HashMap;
import java.util.Map;

/**
 * The table of contents of the command handling: which handler decides which command, and which
 * commands are for administrators only. The admin gate comes before any validation so that someone
 * who is not an admin learns nothing about the workspace, not even whether it exists. The handlers live by area
 * ({@code core.action}, {@code .approval}, {@code .workspace}, {@code .connection}), package-private, each package's
 * registry ({@code ActionHandlers}, ...) making them.
 *
 * <p>Every accepted change of the workspace's configuration value is also held against
 * {@code limits.configurationBytes} ({@link ConfigurationSize}), except the kill switch's: no limit ever
 * refuses {@code set_kill_switch}.
 */
final class CommandHandlers {
    private final Map<Class<? extends Command>, CommandHandler<? extends Command>> handlers = new HashMap<>();
    private final CommandAuthorizer authorizer = new CommandAuthorizer();
    private final ConfigurationSize configurationSize;
    private final CallerGaveUpHandler callerGaveUp = new CallerGaveUpHandler();

    public CommandHandlers(DecisionSettings settings) {
        configurationSize = new ConfigurationSize(settings.limits().configurationBytes());
        register(EvaluateAction.class, ActionHandlers.evaluateAction(settings, authorizer));
        register(CreateWorkspace.class, WorkspaceHandlers.createWorkspace());
        register(SetKillSwitch.class, adminOnly(WorkspaceHandlers.setKillSwitch()));
        register(UpsertPolicy.class, adminOnly(WorkspaceHandlers.upsertPolicy(settings.limits(),
                ConditionEnvironment.of(settings.conditions()))));
        register(DeletePolicy.class, adminOnly(WorkspaceHandlers.deletePolicy()));
        register(SetWorkspaceDefaults.class, adminOnly(WorkspaceHandlers.setWorkspaceDefaults()));
        register(IssueApiKey.class, adminOnly(WorkspaceHandlers.issueApiKey(settings.limits().apiKeys(),
                settings.apiKeyGrace())));
        register(RevokeApiKey.class, adminOnly(WorkspaceHandlers.revokeApiKey()));
        register(SetMember.class, adminOnly(WorkspaceHandlers.setMember(authorizer)));
        register(RemoveMember.class, adminOnly(WorkspaceHandlers.removeMember(authorizer)));
        register(SetNotificationSettings.class, adminOnly(WorkspaceHandlers.setNotificationSettings()));
        register(SendTestNotification.class, adminOnly(WorkspaceHandlers.sendTestNotification()));
        register(UpsertToolConnection.class, adminOnly(ConnectionHandlers.upsertToolConnection(
                settings.limits().repositoriesPerConnection())));
        register(DeleteToolConnection.class, adminOnly(ConnectionHandlers.deleteToolConnection()));
        register(RotateWebhookSecret.class, adminOnly(ConnectionHandlers.rotateWebhookSecret()));
        // reviewers decide approvals and nothing else; viewers and members decide nothing
        register(ReviewApproval.class, reviewersOnly(ApprovalHandlers.reviewApproval(settings.fourEyes())));
        register(ClaimApprovedCall.class, gatewayOnly(ApprovalHandlers.claimApprovedCall()));
        register(RecordCallExecution.class, gatewayOnly(ApprovalHandlers.recordCallExecution()));
        // only the ingress's webhook verifier sends these, after the signature held
        register(ReceiveWebhook.class, gatewayOnly(ActionHandlers.receiveWebhook(settings)));
        // an API key or the gateway itself; the handler checks which
        register(CheckAccess.class, ActionHandlers.checkAccess(authorizer));
        // the OAuth callback, as the admin who started the flow
        register(SetToolAccessToken.class, adminOnly(ConnectionHandlers.setToolAccessToken()));
        // only the ingress, after answering an evaluation's caller 503/504; without the recorded decision a no-op
        register(RecordCallerGaveUp.class, gatewayOnly(callerGaveUp));
        // the API key that opened the approval, and no other; the handler checks it
        register(WithdrawApproval.class, ApprovalHandlers.withdrawApproval(authorizer));
        // a privacy request: the payload goes from the read model, its digest stays in the Merkle log
        register(EraseAuditPayload.class, adminOnly(WorkspaceHandlers.eraseAuditPayload()));
    }

    /**
     * Decides a {@link RecordCallerGaveUp} given the decision recorded for the attempt it names ({@code recorded},
     * or null when there is none, and the command id it was decided under): the topology looks that up in its processed commands.
     */
    public CommandResult handleCallerGaveUp(CommandEnvelope envelope, WorkspaceState state, ActionEvaluated recorded,
                                            String recordedUnder) {
        if (!(envelope.command() instanceof RecordCallerGaveUp command)) {
            throw new IllegalArgumentException("not a RecordCallerGaveUp: " + envelope.command().getClass().getSimpleName());
        }
        return gatewayOnly((CommandHandler<RecordCallerGaveUp>) (e, s, c) -> callerGaveUp.handle(e, s, c, recorded, recordedUnder))
                .handle(envelope, state, command);
    }

    /** Decides a command whose envelope has already been checked for its required fields. */
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state) {
        Command command = envelope.command();
        @SuppressWarnings("unchecked")
        CommandHandler<Command> handler = (CommandHandler<Command>) handlers.get(command.getClass());
        if (handler == null) {
            return CommandResult.invalid(state, "Unsupported command " + command.getClass().getSimpleName());
        }
        CommandResult result = handler.handle(envelope, state, command);
        if (command instanceof SetKillSwitch) {
            // the switch changes a flag and a set of at most six tools: it can never be what makes the value too big
            return result;
        }
        return configurationSize.check(envelope, state, result);
    }

    private <C extends Command> void register(Class<C> type, CommandHandler<C> handler) {
        handlers.put(type, handler);
    }

    /**
     * Commands of the gateway's own components (the approval executor): a system actor only. The
     * HTTP API never issues a system actor, so no agent or user can claim or settle a run.
     */
    private static <C extends Command> CommandHandler<C> gatewayOnly(CommandHandler<C> handler) {
        return (envelope, state, command) -> CommandAuthorizer.isSystem(envelope.actor())
                ? handler.handle(envelope, state, command)
                : CommandResult.rejected(state, ReplyStatus.FORBIDDEN, CommandAuthorizer.GATEWAY_REQUIRED);
    }

    private <C extends Command> CommandHandler<C> reviewersOnly(CommandHandler<C> handler) {
        return (envelope, state, command) -> authorizer.mayReview(state, envelope.actor())
                ? handler.handle(envelope, state, command)
                : CommandResult.rejected(state, ReplyStatus.FORBIDDEN, CommandAuthorizer.REVIEWER_REQUIRED);
    }

    private <C extends Command> CommandHandler<C> adminOnly(CommandHandler<C> handler) {
        return (envelope, state, command) -> authorizer.mayAdminister(state, envelope.actor())
                ? handler.handle(envelope, state, command)
                : CommandResult.rejected(state, ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
    }
}
