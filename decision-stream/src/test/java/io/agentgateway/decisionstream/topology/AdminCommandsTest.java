package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.state.Member;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.RemoveMember;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.command.SendTestNotification;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.command.SetNotificationSettings;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.ApiKeyRevoked;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.MemberRemoved;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.event.NotificationSettingsSet;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.WorkspaceCreated;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import io.agentgateway.schemas.secret.SealedSecret;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AdminCommandsTest extends OneWorkspaceTopologyTest {
    private static final String ADMIN_REQUIRED = "Admin or owner role required";
    private static final String SEALED_URL = "v1.c2VhbGVkLWJ5LXRoZS10ZXN0";

    WorkspaceState state() {
        return driver.workspaceStates().get(workspace.id);
    }

    @Nested
    class CreatingAWorkspace {

        @Test
        void the_creator_becomes_its_owner() {
            TestWorkspace fresh = TestWorkspace.create(driver);
            WorkspaceState state = driver.workspaceStates().get(fresh.id);
            assertThat(state.exists()).isTrue();
            assertThat(state.name()).isEqualTo(fresh.name);
            assertThat(state.members()).containsExactly(Map.entry(fresh.owner.userId(), new Member("owner@example.com", Role.OWNER)));
            assertThat(state.defaults()).containsEntry(RiskLevel.HIGH, Decision.REQUIRE_APPROVAL);
            assertThat(state.approvalTtl()).isEqualTo(Duration.ofHours(24));
        }

        @Test
        void emits_workspace_created_and_the_owner_membership() {
            Actor creator = Actor.user("creator", "creator@example.com");
            CommandEnvelope envelope = new CommandEnvelope(1, UUID.randomUUID().toString(), UUID.randomUUID().toString(),
                    "corr-1", TestWorkspace.START, 0, creator, new CreateWorkspace("  Acme  "));
            Emitted emitted = driver.send(envelope);
            emitted.ok();
            assertThat(emitted.domainEvents()).containsExactly(
                    new WorkspaceCreated("Acme", "creator", "creator@example.com"),
                    new MemberSet("creator", "creator@example.com", Role.OWNER));
            assertThat(emitted.events()).extracting(EventEnvelope::workspaceVersion).containsOnly(1L);
            assertThat(emitted.notifications()).isEmpty();
        }

        @Test
        void an_operator_creates_a_workspace_for_its_named_owner() {
            Actor operator = Actor.user("gateway-operator", null);
            CommandEnvelope envelope = new CommandEnvelope(1, UUID.randomUUID().toString(), UUID.randomUUID().toString(),
                    "corr-2", TestWorkspace.START, 0, operator, new CreateWorkspace("Acme", "alice", "alice@acme.example"));
            Emitted emitted = driver.send(envelope);
            emitted.ok();
            // the operator is no member of it: the named owner is
            assertThat(emitted.domainEvents()).containsExactly(
                    new WorkspaceCreated("Acme", "alice", "alice@acme.example"),
                    new MemberSet("alice", "alice@acme.example", Role.OWNER));
        }

        @Test
        void an_existing_workspace_is_a_conflict() {
            workspace.as(Actor.user("someone-else", "x@example.com"), new CreateWorkspace("again"))
                    .refused(ReplyStatus.CONFLICT, "Workspace already exists");
            assertThat(state().name()).isEqualTo(workspace.name);
        }

        @Test
        void only_a_user_can_create_one() {
            CommandEnvelope envelope = new CommandEnvelope(1, UUID.randomUUID().toString(), UUID.randomUUID().toString(),
                    "corr", TestWorkspace.START, 0, Actor.apiKey(TestWorkspace.sha256("k"), null), new CreateWorkspace("x"));
            driver.send(envelope).refused(ReplyStatus.FORBIDDEN, "A signed-in user is required to create a workspace");
            assertThat(driver.workspaceStates().get(envelope.workspaceId())).isNull();
        }

        @Test
        void needs_a_name_and_a_uuid() {
            workspace.as(workspace.owner, new CreateWorkspace(" ")).refused(ReplyStatus.INVALID, "name is required");
            CommandEnvelope notUuid = new CommandEnvelope(1, UUID.randomUUID().toString(), "acme", "corr",
                    TestWorkspace.START, 0, workspace.owner, new CreateWorkspace("Acme"));
            driver.send(notUuid).refused(ReplyStatus.INVALID, "workspaceId must be a lower-case UUID");
        }
    }

    @Nested
    class AdminGate {

        static Stream<Command> adminCommands() {
            return Stream.of(
                    new SetKillSwitch(KillSwitchAction.ENABLE, null),
                    new UpsertPolicy(new Policy(UUID.randomUUID().toString(), "p", 1, true, Decision.BLOCK, PolicyMatch.any(), null)),
                    new DeletePolicy(UUID.randomUUID().toString()),
                    new SetWorkspaceDefaults(Map.of(RiskLevel.LOW, Decision.BLOCK), null),
                    new IssueApiKey(UUID.randomUUID().toString(), "k", TestWorkspace.sha256("x"), Set.of(Scope.EVALUATE), null),
                    new RevokeApiKey(UUID.randomUUID().toString()),
                    new SetMember("someone", "s@example.com", Role.ADMIN),
                    new RemoveMember("someone"),
                    new SetNotificationSettings(null, false),
                    new UpsertToolConnection(Tool.DOCS, null, null, null, null, "https://docs.example", null, null),
                    new DeleteToolConnection(Tool.DOCS),
                    new RotateWebhookSecret(Tool.CODE_HOST, SealedSecret.of(SEALED_URL)));
        }

        @ParameterizedTest
        @MethodSource("adminCommands")
        void a_plain_member_is_forbidden_and_nothing_changes(Command command) {
            Actor member = workspace.member("plain", Role.MEMBER);
            WorkspaceState before = state();
            workspace.as(member, command).refused(ReplyStatus.FORBIDDEN, ADMIN_REQUIRED);
            assertThat(state()).isEqualTo(before);
        }

        @ParameterizedTest
        @MethodSource("adminCommands")
        void a_stranger_an_api_key_and_a_missing_workspace_look_the_same(Command command) {
            workspace.as(Actor.user("stranger", "s@example.com"), command).refused(ReplyStatus.FORBIDDEN, ADMIN_REQUIRED);
            workspace.as(workspace.agent(workspace.evaluateKeyHash()), command).refused(ReplyStatus.FORBIDDEN, ADMIN_REQUIRED);

            String missing = UUID.randomUUID().toString();
            driver.send(new CommandEnvelope(1, UUID.randomUUID().toString(), missing, "corr", TestWorkspace.START, 1,
                    workspace.owner, command)).refused(ReplyStatus.FORBIDDEN, ADMIN_REQUIRED);
            assertThat(driver.workspaceStates().get(missing)).isNull();
        }

        @Test
        void an_admin_may_administer() {
            Actor admin = workspace.member("an-admin", Role.ADMIN);
            workspace.as(admin, new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
            assertThat(state().killSwitchEnabled()).isTrue();
        }

        @Test
        void a_demoted_admin_is_refused_from_the_demotion_on() {
            Actor admin = workspace.member("an-admin", Role.ADMIN);
            workspace.admin(new SetMember("an-admin", null, Role.MEMBER)).ok();
            workspace.as(admin, new SetKillSwitch(KillSwitchAction.ENABLE, null)).refused(ReplyStatus.FORBIDDEN, ADMIN_REQUIRED);
        }
    }

    @Nested
    class KillSwitch {

        @Test
        void enable_emits_the_audit_event_and_a_notification_to_admins_and_owners() {
            workspace.member("an-admin", Role.ADMIN);
            workspace.member("plain", Role.MEMBER);
            workspace.admin(new SetNotificationSettings(SEALED_URL, true)).ok();
            CommandEnvelope envelope = workspace.envelope(workspace.owner, new SetKillSwitch(KillSwitchAction.ENABLE, null));
            Emitted emitted = driver.send(envelope);
            emitted.ok();

            String auditLogId = DerivedIds.auditLogId(envelope.commandId());
            assertThat(emitted.only(KillSwitchChanged.class))
                    .isEqualTo(new KillSwitchChanged(auditLogId, KillSwitchAction.ENABLE, null, true, Set.of()));

            NotificationRequested notification = emitted.notification();
            assertThat(notification.notificationId()).isEqualTo(DerivedIds.notificationId(envelope.commandId()));
            assertThat(notification.kind()).isEqualTo("kill_switch");
            assertThat(notification.workspaceId()).isEqualTo(workspace.id);
            assertThat(notification.correlationId()).isEqualTo(envelope.correlationId());
            assertThat(notification.occurredAt()).isEqualTo(envelope.acceptedAt());
            assertThat(notification.emailTo()).containsExactly("an-admin@example.com", "owner@example.com");
            assertThat(notification.sealedChatWebhookUrl()).isEqualTo(SEALED_URL);
            assertThat(notification.subject()).isEqualTo("Kill switch enabled in workspace " + workspace.name);
            assertThat(notification.text()).contains("owner@example.com", "enabled the kill switch", workspace.name, workspace.id);
            assertThat(notification.details())
                    .containsEntry("action", "enable")
                    .containsEntry("actorUserId", workspace.owner.userId())
                    .containsEntry("workspaceName", workspace.name)
                    .containsEntry("killSwitchEnabled", "true")
                    .containsEntry("pausedTools", "")
                    .containsEntry("auditLogId", auditLogId)
                    .containsEntry("correlationId", envelope.correlationId())
                    .containsEntry("occurredAt", envelope.acceptedAt().toString())
                    .doesNotContainKey("tool");
        }

        @Test
        void every_call_is_recorded_even_when_it_changes_nothing() {
            workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
            long version = state().workspaceVersion();

            Emitted again = workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null));
            again.ok();
            assertThat(again.only(KillSwitchChanged.class).killSwitchEnabled()).isTrue();
            assertThat(again.notification().subject()).startsWith("Kill switch enabled");
            assertThat(state().workspaceVersion()).as("no state change, no new version").isEqualTo(version);
        }

        @Test
        void pause_and_resume_change_only_the_paused_tools() {
            Emitted paused = workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.MCP));
            workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CHAT)).ok();
            assertThat(paused.only(KillSwitchChanged.class).pausedTools()).containsExactly(Tool.MCP);
            assertThat(paused.notification().subject()).isEqualTo("Tool mcp paused in workspace " + workspace.name);
            assertThat(paused.notification().details()).containsEntry("tool", "mcp").containsEntry("killSwitchEnabled", "false");
            assertThat(state().pausedTools()).containsExactlyInAnyOrder(Tool.MCP, Tool.CHAT);
            assertThat(state().killSwitchEnabled()).isFalse();

            Emitted resumed = workspace.admin(new SetKillSwitch(KillSwitchAction.RESUME_TOOL, Tool.MCP));
            KillSwitchChanged changed = resumed.only(KillSwitchChanged.class);
            assertThat(changed.tool()).isEqualTo(Tool.MCP);
            assertThat(changed.pausedTools()).containsExactly(Tool.CHAT);
            assertThat(resumed.notification().details()).containsEntry("pausedTools", "chat");
            assertThat(state().pausedTools()).containsExactly(Tool.CHAT);
        }

        @Test
        void pause_without_a_tool_is_invalid() {
            workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, null))
                    .refused(ReplyStatus.INVALID, "tool is required for pause_tool and resume_tool");
            workspace.admin(new SetKillSwitch(null, null)).refused(ReplyStatus.INVALID, "Unsupported action");
        }

        @Test
        void email_disabled_leaves_no_recipients() {
            workspace.admin(new SetNotificationSettings(null, false)).ok();
            NotificationRequested notification = workspace.admin(new SetKillSwitch(KillSwitchAction.DISABLE, null)).notification();
            assertThat(notification.emailTo()).isEmpty();
            assertThat(notification.sealedChatWebhookUrl()).isNull();
            assertThat(notification.subject()).isEqualTo("Kill switch disabled in workspace " + workspace.name);
        }
    }

    @Nested
    class PoliciesAndDefaults {

        @Test
        void upsert_stores_the_policy_and_bumps_the_policy_set_version() {
            long before = state().policySetVersion();
            Policy policy = new Policy(UUID.randomUUID().toString(), "block merges", 3, true, Decision.BLOCK,
                    TestWorkspace.matchActions("pull_request.merge"), "why not");
            Emitted emitted = workspace.admin(new UpsertPolicy(policy));
            emitted.ok();
            assertThat(emitted.only(PolicyUpserted.class).policy()).isEqualTo(policy);
            assertThat(state().policies()).containsEntry(policy.id(), policy);
            assertThat(state().policySetVersion()).isEqualTo(before + 1);
            assertThat(emitted.events().get(0).policySetVersion()).isEqualTo(before + 1);
            assertThat(emitted.events().get(0).workspaceVersion()).isEqualTo(state().workspaceVersion());
        }

        @Test
        void a_policy_without_a_match_applies_to_everything() {
            String id = UUID.randomUUID().toString();
            workspace.admin(new UpsertPolicy(new Policy(id, "everything", 1, true, Decision.BLOCK, null, null))).ok();
            assertThat(state().policies().get(id).match()).isEqualTo(PolicyMatch.any());
            assertThat(workspace.evaluate(Tool.CHAT, "message.send", RiskLevel.LOW).evaluation().matchedPolicyId()).isEqualTo(id);
        }

        @Test
        void invalid_policies_are_refused_with_the_reason() {
            String id = UUID.randomUUID().toString();
            workspace.admin(new UpsertPolicy(null)).refused(ReplyStatus.INVALID, "policy is required");
            workspace.admin(new UpsertPolicy(new Policy(null, "n", 1, true, Decision.BLOCK, null, null)))
                    .refused(ReplyStatus.INVALID, "policy.id must be a lower-case UUID");
            workspace.admin(new UpsertPolicy(new Policy(id.toUpperCase(), "n", 1, true, Decision.BLOCK, null, null)))
                    .refused(ReplyStatus.INVALID, "policy.id must be a lower-case UUID");
            workspace.admin(new UpsertPolicy(new Policy(id, " ", 1, true, Decision.BLOCK, null, null)))
                    .refused(ReplyStatus.INVALID, "policy.name is required");
            workspace.admin(new UpsertPolicy(new Policy(id, "n", 1, true, null, null, null)))
                    .refused(ReplyStatus.INVALID, "policy.decision must be one of allow, block, require_approval");
            assertThat(state().policies()).isEmpty();
        }

        @Test
        void delete_removes_the_policy_and_unknown_ids_are_not_found() {
            String id = workspace.upsertPolicy("temporary", 1, Decision.BLOCK, PolicyMatch.any());
            long before = state().policySetVersion();
            Emitted deleted = workspace.admin(new DeletePolicy(id));
            deleted.ok();
            assertThat(deleted.only(PolicyDeleted.class).policyId()).isEqualTo(id);
            assertThat(state().policies()).isEmpty();
            assertThat(state().policySetVersion()).isEqualTo(before + 1);

            workspace.admin(new DeletePolicy(id)).refused(ReplyStatus.NOT_FOUND, "Policy not found");
        }

        @Test
        void defaults_events_carry_the_complete_map() {
            Emitted emitted = workspace.admin(new SetWorkspaceDefaults(Map.of(RiskLevel.CRITICAL, Decision.REQUIRE_APPROVAL),
                    Duration.ofHours(2)));
            emitted.ok();
            WorkspaceDefaultsSet set = emitted.only(WorkspaceDefaultsSet.class);
            assertThat(set.decisions()).containsExactlyInAnyOrderEntriesOf(Map.of(
                    RiskLevel.LOW, Decision.ALLOW,
                    RiskLevel.MEDIUM, Decision.ALLOW,
                    RiskLevel.HIGH, Decision.REQUIRE_APPROVAL,
                    RiskLevel.CRITICAL, Decision.REQUIRE_APPROVAL));
            assertThat(set.approvalTtl()).isEqualTo(Duration.ofHours(2));
            assertThat(emitted.events().get(0).policySetVersion()).isEqualTo(state().policySetVersion());
            assertThat(workspace.evaluate(Tool.DOCS, "page.drop", RiskLevel.CRITICAL).evaluation().decision())
                    .isEqualTo(Decision.REQUIRE_APPROVAL);
        }

        @Test
        void a_non_positive_ttl_is_invalid() {
            workspace.admin(new SetWorkspaceDefaults(null, Duration.ZERO))
                    .refused(ReplyStatus.INVALID, "approvalTtl must be a positive duration");
        }

        @Test
        void a_ttl_over_a_year_is_invalid() {
            // issue 14: a TTL of millions of hours was accepted, and every later approval of the workspace failed
            // with an ArithmeticException computing its expiry
            workspace.admin(new SetWorkspaceDefaults(null, Duration.ofHours(2562047788015215L)))
                    .refused(ReplyStatus.INVALID, "approvalTtl must be at most P366D");
        }
    }

    @Nested
    class ApiKeys {

        @Test
        void issue_registers_the_hash_and_emits_it() {
            String keyId = UUID.randomUUID().toString();
            String hash = TestWorkspace.sha256("agk_new");
            Emitted emitted = workspace.admin(new IssueApiKey(keyId, "ci", hash, Set.of(Scope.PROXY, Scope.MCP), null));
            emitted.ok();
            assertThat(emitted.only(ApiKeyIssued.class))
                    .isEqualTo(new ApiKeyIssued(keyId, "ci", hash, Set.of(Scope.MCP, Scope.PROXY), null));
            assertThat(state().apiKeyByHash(hash)).get().satisfies(grant -> {
                assertThat(grant.keyId()).isEqualTo(keyId);
                assertThat(grant.scopes()).containsExactly(Scope.MCP, Scope.PROXY);
                assertThat(grant.revokedAt()).isNull();
            });
        }

        @Test
        void duplicates_and_bad_content_are_refused() {
            String hash = TestWorkspace.sha256("agk_dup");
            String keyId = UUID.randomUUID().toString();
            workspace.admin(new IssueApiKey(keyId, "a", hash, Set.of(Scope.EVALUATE), null)).ok();
            workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "b", hash, Set.of(Scope.EVALUATE), null))
                    .refused(ReplyStatus.CONFLICT, "API key already exists");
            workspace.admin(new IssueApiKey(keyId, "c", TestWorkspace.sha256("other"), Set.of(Scope.EVALUATE), null))
                    .refused(ReplyStatus.CONFLICT, "API key already exists");
            workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "d", "agk_plaintext", Set.of(Scope.EVALUATE), null))
                    .refused(ReplyStatus.INVALID, "keyHash must be the lower-case hex SHA-256 of the key");
            workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "e", TestWorkspace.sha256("e"), Set.of(), null))
                    .refused(ReplyStatus.INVALID, "scopes must name at least one of evaluate, mcp, proxy");
            workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "f", TestWorkspace.sha256("f"), Set.of(Scope.MCP),
                    workspace.now().minusSeconds(1))).refused(ReplyStatus.INVALID, "expiresAt must be in the future");
        }

        @Test
        void revoke_marks_the_key_at_acceptedAt_and_unknown_ids_are_not_found() {
            String keyId = state().apiKeyByHash(workspace.evaluateKeyHash()).orElseThrow().keyId();
            CommandEnvelope revoke = workspace.envelope(workspace.owner, new RevokeApiKey(keyId));
            Emitted emitted = driver.send(revoke);
            emitted.ok();
            assertThat(emitted.only(ApiKeyRevoked.class).keyId()).isEqualTo(keyId);
            assertThat(state().apiKeyByHash(workspace.evaluateKeyHash()).orElseThrow().revokedAt()).isEqualTo(revoke.acceptedAt());

            Emitted again = workspace.admin(new RevokeApiKey(keyId));
            again.ok();
            again.assertNothingButTheReply();
            assertThat(state().apiKeyByHash(workspace.evaluateKeyHash()).orElseThrow().revokedAt()).isEqualTo(revoke.acceptedAt());

            workspace.admin(new RevokeApiKey(UUID.randomUUID().toString())).refused(ReplyStatus.NOT_FOUND, "API key not found");
        }
    }

    @Nested
    class Members {

        @Test
        void set_and_remove_members() {
            Emitted added = workspace.admin(new SetMember("dev", "dev@example.com", Role.MEMBER));
            added.ok();
            assertThat(added.only(MemberSet.class)).isEqualTo(new MemberSet("dev", "dev@example.com", Role.MEMBER));

            Emitted promoted = workspace.admin(new SetMember("dev", null, Role.ADMIN));
            assertThat(promoted.only(MemberSet.class)).as("the email is kept when not given")
                    .isEqualTo(new MemberSet("dev", "dev@example.com", Role.ADMIN));

            Emitted removed = workspace.admin(new RemoveMember("dev"));
            removed.ok();
            assertThat(removed.only(MemberRemoved.class).userId()).isEqualTo("dev");
            assertThat(state().members()).containsOnlyKeys(workspace.owner.userId());

            workspace.admin(new RemoveMember("dev")).refused(ReplyStatus.NOT_FOUND, "Member not found");
        }

        @Test
        void only_an_owner_may_grant_or_change_the_owner_role() {
            Actor admin = workspace.member("an-admin", Role.ADMIN);
            workspace.as(admin, new SetMember("an-admin", null, Role.OWNER))
                    .refused(ReplyStatus.FORBIDDEN, "Owner role required to grant or change the owner role");
            workspace.as(admin, new SetMember(workspace.owner.userId(), null, Role.MEMBER))
                    .refused(ReplyStatus.FORBIDDEN, "Owner role required to grant or change the owner role");
            workspace.as(admin, new RemoveMember(workspace.owner.userId()))
                    .refused(ReplyStatus.FORBIDDEN, "Owner role required to remove an owner");
            // an admin manages non-owners freely
            workspace.as(admin, new SetMember("dev", "dev@example.com", Role.ADMIN)).ok();
        }

        @Test
        void the_last_owner_can_be_neither_demoted_nor_removed() {
            String ownerId = workspace.owner.userId();
            workspace.admin(new SetMember(ownerId, null, Role.ADMIN)).refused(ReplyStatus.CONFLICT, "The last owner cannot be demoted");
            workspace.admin(new RemoveMember(ownerId)).refused(ReplyStatus.CONFLICT, "The last owner cannot be removed");
            assertThat(state().member(ownerId).orElseThrow().role()).isEqualTo(Role.OWNER);

            // with a second owner, the first may step down
            workspace.admin(new SetMember("co-owner", "co@example.com", Role.OWNER)).ok();
            workspace.admin(new SetMember(ownerId, null, Role.ADMIN)).ok();
            Actor coOwner = Actor.user("co-owner", "co@example.com");
            workspace.as(coOwner, new RemoveMember("co-owner")).refused(ReplyStatus.CONFLICT, "The last owner cannot be removed");
        }

        @Test
        void invalid_member_commands() {
            workspace.admin(new SetMember(" ", "x@example.com", Role.ADMIN)).refused(ReplyStatus.INVALID, "userId is required");
            workspace.admin(new SetMember("x", "x@example.com", null))
                    .refused(ReplyStatus.INVALID, "role must be one of owner, admin, member, reviewer, viewer");
        }
    }

    @Nested
    class NotificationSettings {

        @Test
        void stores_the_sealed_url_and_says_only_whether_chat_is_configured() {
            Emitted emitted = workspace.admin(new SetNotificationSettings(SEALED_URL, false));
            emitted.ok();
            assertThat(emitted.only(NotificationSettingsSet.class)).isEqualTo(new NotificationSettingsSet(true, false));
            assertThat(state().notifications().sealedChatWebhookUrl()).isEqualTo(SEALED_URL);

            assertThat(workspace.admin(new SetNotificationSettings(null, true)).only(NotificationSettingsSet.class))
                    .isEqualTo(new NotificationSettingsSet(false, true));
        }

        @Test
        void a_test_notification_is_emitted_once_per_command_even_when_redelivered_and_changes_nothing() {
            workspace.admin(new SetNotificationSettings(SEALED_URL, true)).ok();
            WorkspaceState before = state();
            CommandEnvelope envelope = workspace.envelope(workspace.owner, new SendTestNotification());

            Emitted first = driver.send(envelope);
            first.ok();
            assertThat(first.events()).as("nothing changed, nothing to project").isEmpty();
            NotificationRequested test = first.notification();
            assertThat(test.kind()).isEqualTo("test");
            assertThat(test.notificationId()).isEqualTo(DerivedIds.notificationId(envelope.commandId()));
            assertThat(test.emailTo()).containsExactly("owner@example.com");
            assertThat(test.sealedChatWebhookUrl()).isEqualTo(SEALED_URL);
            assertThat(state()).isEqualTo(before);

            Emitted redelivered = driver.send(envelope);
            assertThat(redelivered.notifications()).as("the same record, which the notifier's ledger sends once")
                    .containsExactly(test);
            assertThat(redelivered.events()).isEmpty();
        }

        @Test
        void a_plain_url_is_refused() {
            workspace.admin(new SetNotificationSettings("https://chat.example.com/hook/secret", true))
                    .refused(ReplyStatus.INVALID, "sealedChatWebhookUrl must be sealed with SecretBox");
            assertThat(state().notifications().sealedChatWebhookUrl()).isNull();
        }
    }

    @Test
    void the_workspace_version_counts_every_state_change() {
        long start = state().workspaceVersion();
        workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
        workspace.admin(new SetMember("dev", "dev@example.com", Role.MEMBER)).ok();
        workspace.admin(new DeletePolicy(UUID.randomUUID().toString())).refused(ReplyStatus.NOT_FOUND, "Policy not found");
        Emitted third = workspace.admin(new SetNotificationSettings(null, false));
        assertThat(state().workspaceVersion()).isEqualTo(start + 3);
        assertThat(third.events().get(0).workspaceVersion()).isEqualTo(start + 3);
        assertThat(state().policySetVersion()).as("no policy or default changed").isZero();
    }
}
