package io.agentgateway.decisioncore.core.workspace;

import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.EraseAuditPayload;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.RemoveMember;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.SendTestNotification;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.command.SetNotificationSettings;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.UpsertPolicy;
import java.time.Duration;

/**
 * The handlers of a workspace's own configuration (its creation, the kill switch, policies, defaults, keys, members,
 * notification settings, a payload's erasure), for {@code CommandHandlers}' table; the handlers themselves stay
 * package-private.
 */
public final class WorkspaceHandlers {
    private WorkspaceHandlers() {}

    public static CommandHandler<CreateWorkspace> createWorkspace() {
        return new CreateWorkspaceHandler();
    }

    public static CommandHandler<SetKillSwitch> setKillSwitch() {
        return new SetKillSwitchHandler();
    }

    public static CommandHandler<UpsertPolicy> upsertPolicy(DecisionLimits limits, ConditionEnvironment conditions) {
        return new UpsertPolicyHandler(limits, conditions);
    }

    public static CommandHandler<DeletePolicy> deletePolicy() {
        return new DeletePolicyHandler();
    }

    public static CommandHandler<SetWorkspaceDefaults> setWorkspaceDefaults() {
        return new SetWorkspaceDefaultsHandler();
    }

    public static CommandHandler<IssueApiKey> issueApiKey(long apiKeysLimit, Duration grace) {
        return new IssueApiKeyHandler(apiKeysLimit, grace);
    }

    public static CommandHandler<RevokeApiKey> revokeApiKey() {
        return new RevokeApiKeyHandler();
    }

    public static CommandHandler<SetMember> setMember(CommandAuthorizer authorizer) {
        return new SetMemberHandler(authorizer);
    }

    public static CommandHandler<RemoveMember> removeMember(CommandAuthorizer authorizer) {
        return new RemoveMemberHandler(authorizer);
    }

    public static CommandHandler<SetNotificationSettings> setNotificationSettings() {
        return new SetNotificationSettingsHandler();
    }

    public static CommandHandler<SendTestNotification> sendTestNotification() {
        return new SendTestNotificationHandler();
    }

    public static CommandHandler<EraseAuditPayload> eraseAuditPayload() {
        return new EraseAuditPayloadHandler();
    }
}
