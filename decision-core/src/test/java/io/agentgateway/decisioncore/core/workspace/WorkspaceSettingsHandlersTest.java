package io.agentgateway.decisioncore.core.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.core.CoreWorkspace;
import io.agentgateway.decisioncore.state.Member;
import io.agentgateway.decisioncore.state.NotificationSettings;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.RemoveMember;
import io.agentgateway.schemas.command.SendTestNotification;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.command.SetNotificationSettings;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.MemberRemoved;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.event.NotificationSettingsSet;
import io.agentgateway.schemas.event.WorkspaceCreated;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The workspace's own settings decided by the core alone: creation, members and the owner rules, the defaults
 * and approval TTL, notification settings, and the kill switch command with its notification.
 */
class WorkspaceSettingsHandlersTest {
    private final CoreWorkspace workspace = CoreWorkspace.create();

    @Test
    void creating_a_workspace_makes_its_creator_the_owner_once() {
        CoreWorkspace fresh = CoreWorkspace.absent();

        Decided created = fresh.admin(new CreateWorkspace("  Acme  ")).ok();

        assertThat(created.event(0, WorkspaceCreated.class).name()).isEqualTo("Acme");
        assertThat(created.event(1, MemberSet.class).role()).isEqualTo(Role.OWNER);
        assertThat(fresh.state().exists()).isTrue();
        assertThat(fresh.state().member(fresh.owner.userId())).contains(new Member("owner@example.com", Role.OWNER));
        fresh.admin(new CreateWorkspace("Again")).refused(ReplyStatus.CONFLICT, "Workspace already exists");
        CoreWorkspace.absent().as(Actor.system("tool"), new CreateWorkspace("Acme"))
                .refused(ReplyStatus.FORBIDDEN, "A signed-in user is required to create a workspace");
    }

    @Test
    void a_missing_workspace_authorizes_no_admin_command() {
        CoreWorkspace absent = CoreWorkspace.absent();
        absent.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
        absent.admin(new SetMember("mia", "mia@example.com", Role.ADMIN))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
    }

    @Test
    void members_are_set_and_removed_and_only_owners_touch_ownership() {
        Actor admin = workspace.member("ada", Role.ADMIN);
        assertThat(workspace.state().member("ada")).contains(new Member("ada@example.com", Role.ADMIN));

        workspace.as(admin, new SetMember("bob", "bob@example.com", Role.OWNER))
                .refused(ReplyStatus.FORBIDDEN, "Owner role required to grant or change the owner role");
        workspace.as(admin, new RemoveMember(workspace.owner.userId()))
                .refused(ReplyStatus.FORBIDDEN, "Owner role required to remove an owner");
        workspace.admin(new SetMember(workspace.owner.userId(), null, Role.ADMIN))
                .refused(ReplyStatus.CONFLICT, "The last owner cannot be demoted");
        workspace.admin(new RemoveMember(workspace.owner.userId()))
                .refused(ReplyStatus.CONFLICT, "The last owner cannot be removed");

        Decided changed = workspace.as(admin, new SetMember("bob", "bob@example.com", Role.MEMBER)).ok();
        assertThat(changed.event(0, MemberSet.class).email()).isEqualTo("bob@example.com");
        Decided removed = workspace.as(admin, new RemoveMember("bob")).ok();
        assertThat(removed.event(0, MemberRemoved.class).userId()).isEqualTo("bob");
        assertThat(workspace.state().member("bob")).isEmpty();
        workspace.admin(new RemoveMember("bob")).refused(ReplyStatus.NOT_FOUND, "Member not found");

        Actor member = workspace.member("mia", Role.MEMBER);
        workspace.as(member, new SetMember("eve", "eve@example.com", Role.MEMBER))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
    }

    @Test
    void defaults_change_the_decision_by_risk_and_the_approval_ttl() {
        Decided set = workspace.admin(new SetWorkspaceDefaults(Map.of(RiskLevel.LOW, Decision.BLOCK), Duration.ofMinutes(5))).ok();

        WorkspaceDefaultsSet event = set.event(0, WorkspaceDefaultsSet.class);
        assertThat(event.decisions()).containsEntry(RiskLevel.LOW, Decision.BLOCK)
                .containsEntry(RiskLevel.HIGH, Decision.REQUIRE_APPROVAL);
        assertThat(event.approvalTtl()).isEqualTo(Duration.ofMinutes(5));
        assertThat(set.after().policySetVersion()).isEqualTo(set.before().policySetVersion() + 1);
        assertThat(workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).decision().evaluation().decision())
                .isEqualTo(Decision.BLOCK);
        Decided held = workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).ok();
        assertThat(held.event(1, io.agentgateway.schemas.event.ApprovalRequested.class).expiresAt())
                .isEqualTo(held.envelope().acceptedAt().plus(Duration.ofMinutes(5)));

        workspace.admin(new SetWorkspaceDefaults(null, Duration.ZERO))
                .refused(ReplyStatus.INVALID, "approvalTtl must be a positive duration");
        workspace.admin(new SetWorkspaceDefaults(null, Duration.ofDays(367)))
                .refused(ReplyStatus.INVALID, "approvalTtl must be at most P366D");
    }

    @Test
    void notification_settings_take_only_a_sealed_chat_url_and_steer_who_is_told() {
        workspace.admin(new SetNotificationSettings("https://chat.example/hook", true))
                .refused(ReplyStatus.INVALID, "sealedChatWebhookUrl must be sealed with SecretBox");

        Decided set = workspace.admin(new SetNotificationSettings("v1.Y2hhdA", false)).ok();

        assertThat(set.event(0, NotificationSettingsSet.class))
                .isEqualTo(new NotificationSettingsSet(true, false));
        assertThat(workspace.state().notifications()).isEqualTo(new NotificationSettings("v1.Y2hhdA", false));
        NotificationRequested told = workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok()
                .decision().notifications().get(0);
        assertThat(told.emailTo()).as("email off").isEmpty();
        assertThat(told.sealedChatWebhookUrl()).isEqualTo("v1.Y2hhdA");
    }

    @Test
    void every_kill_switch_command_is_recorded_and_notified_even_a_no_op() {
        Decided paused = workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.MCP)).ok();
        assertThat(paused.event(0, KillSwitchChanged.class).pausedTools()).containsExactly(Tool.MCP);
        assertThat(workspace.state().pausedTools()).containsExactly(Tool.MCP);

        Decided enabled = workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
        KillSwitchChanged changed = enabled.event(0, KillSwitchChanged.class);
        assertThat(changed.killSwitchEnabled()).isTrue();
        assertThat(changed.pausedTools()).containsExactly(Tool.MCP);
        assertThat(workspace.state().killSwitchEnabled()).isTrue();
        NotificationRequested told = enabled.decision().notifications().get(0);
        assertThat(told.kind()).isEqualTo(NotificationRequested.KIND_KILL_SWITCH);
        assertThat(told.emailTo()).containsExactly("owner@example.com");
        assertThat(told.details()).containsEntry("action", "enable").containsEntry("killSwitchEnabled", "true")
                .containsEntry("pausedTools", "mcp").containsEntry("auditLogId", changed.auditLogId());

        Decided again = workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
        assertThat(again.events()).hasSize(1);
        assertThat(again.decision().notifications()).hasSize(1);

        workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, null))
                .refused(ReplyStatus.INVALID, "tool is required for pause_tool and resume_tool");
        assertThat(workspace.state().pausedTools()).isEqualTo(Set.of(Tool.MCP));
    }

    @Test
    void a_test_notification_goes_where_alerts_go_and_changes_nothing() {
        Actor reviewer = workspace.member("rita", Role.REVIEWER);
        workspace.as(reviewer, new SendTestNotification()).refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
        workspace.member("ada", Role.ADMIN);

        Decided sent = workspace.admin(new SendTestNotification()).ok();

        assertThat(sent.events()).isEmpty();
        assertThat(sent.after().workspaceVersion()).isEqualTo(sent.before().workspaceVersion());
        NotificationRequested told = sent.decision().notifications().get(0);
        assertThat(told.kind()).isEqualTo(SendTestNotificationHandler.KIND_TEST);
        assertThat(told.notificationId()).isEqualTo(io.agentgateway.schemas.DerivedIds.notificationId(sent.envelope().commandId()));
        assertThat(told.emailTo()).as("admins and owners, not the reviewer").containsExactly("ada@example.com", "owner@example.com");
        assertThat(told.subject()).isEqualTo("Test notification from workspace Acme");
        assertThat(told.details()).containsEntry("actorUserId", "owner-1");

        workspace.admin(new SetNotificationSettings(null, false)).ok();
        workspace.admin(new SendTestNotification()).refused(ReplyStatus.CONFLICT, SendTestNotificationHandler.NOBODY);
        workspace.admin(new SetNotificationSettings("v1.Y2hhdA", false)).ok();
        // the email setting alone, keeping the chat webhook the caller never saw
        workspace.admin(new SetNotificationSettings("v1.b3RoZXI", false, true))
                .refused(ReplyStatus.INVALID, "keepChatWebhook and chatWebhookUrl cannot both be set");
        workspace.admin(new SetNotificationSettings(null, false, true)).ok();
        assertThat(workspace.state().notifications()).isEqualTo(new NotificationSettings("v1.Y2hhdA", false));
        NotificationRequested chatOnly = workspace.admin(new SendTestNotification()).ok().decision().notifications().get(0);
        assertThat(chatOnly.emailTo()).isEmpty();
        assertThat(chatOnly.sealedChatWebhookUrl()).isEqualTo("v1.Y2hhdA");
    }
}
