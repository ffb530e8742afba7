package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.call.CallView;
import io.agentgateway.schemas.ConditionError;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.ApiKeyRevoked;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.EvaluationUndelivered;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.LimitReached;
import io.agentgateway.schemas.event.MemberRemoved;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.event.NotificationSettingsSet;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Every event type lands in its table with the values of the event. */
class EveryEventProjectionTest extends ProjectorTestCase {
    EveryEventProjectionTest() {
        super("projector_every_event");
    }

    @Test
    void flywayMigratedTheEmptyDatabase() {
        assertThat(jdbc.queryForList("select version from flyway_schema_history where success", String.class))
                .containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
                        "16", "17", "18", "20", "21", "22", "23");
        assertThat(jdbc.queryForList(
                "select table_name from information_schema.tables where table_schema = 'public'", String.class))
                .contains("workspaces", "workspace_members", "api_keys", "policies", "audit_log",
                        "approval_requests", "kill_switch_history", "tool_connections", "webhook_events");
    }

    @Test
    void workspaceSettingsMembersPoliciesAndKeysLandInTheirTables() {
        WorkspaceEvents ws = new WorkspaceEvents();
        String keptPolicy = UUID.randomUUID().toString();
        String deletedPolicy = UUID.randomUUID().toString();
        String keptKey = UUID.randomUUID().toString();
        String revokedKey = UUID.randomUUID().toString();
        Instant keyExpiry = Instant.now().plus(Duration.ofDays(30)).truncatedTo(ChronoUnit.MILLIS);
        PolicyMatch match = new PolicyMatch(Set.of(Tool.CODE_HOST), List.of("pull_request.*"), Set.of(RiskLevel.HIGH),
                List.of(), List.of(), List.of(), Set.of(ActionSource.PROXY));

        EventEnvelope created = ws.created("Acme");
        EventEnvelope revocation;
        publisher.publish(
                created,
                ws.stateChange(c -> new MemberSet("alice", "alice@example.com", Role.ADMIN)),
                ws.stateChange(c -> new MemberSet("bob", "bob@example.com", Role.MEMBER)),
                ws.stateChange(c -> new MemberRemoved("bob")),
                ws.stateChange(c -> new MemberSet("rita", "rita@example.com", Role.REVIEWER)),
                ws.stateChange(c -> new MemberSet("vic", "vic@example.com", Role.VIEWER)),
                ws.stateChange(c -> new NotificationSettingsSet(true, false)),
                ws.policyChange(c -> new WorkspaceDefaultsSet(Map.of(RiskLevel.LOW, Decision.ALLOW,
                        RiskLevel.MEDIUM, Decision.ALLOW, RiskLevel.HIGH, Decision.REQUIRE_APPROVAL,
                        RiskLevel.CRITICAL, Decision.BLOCK), Duration.ofMinutes(15), "Europe/Berlin")),
                ws.policyChange(c -> new PolicyUpserted(new Policy(keptPolicy, "merges need review", 10, true,
                        Decision.REQUIRE_APPROVAL, match, "every merge is reviewed", "target.branch == 'main'"))),
                ws.policyChange(c -> new PolicyUpserted(new Policy(deletedPolicy, "temporary", 20, false,
                        Decision.BLOCK, PolicyMatch.any(), null))),
                ws.policyChange(c -> new PolicyDeleted(deletedPolicy)),
                ws.stateChange(c -> new ApiKeyIssued(keptKey, "ci", "hash-" + keptKey, Set.of(Scope.EVALUATE, Scope.MCP), keyExpiry,
                        "release-bot", null)),
                ws.stateChange(c -> new ApiKeyIssued(revokedKey, "old", "hash-" + revokedKey, Set.of(Scope.PROXY), null)),
                revocation = ws.stateChange(c -> new ApiKeyRevoked(revokedKey)));

        eventually().until(() -> jdbc.queryForObject(
                "select count(*) from api_keys where key_id = ?::uuid and revoked_at is not null", Long.class, revokedKey),
                count -> count == 1);

        Map<String, Object> workspace = jdbc.queryForMap("""
                select name, created_at, kill_switch_enabled, array_to_string(paused_tools, ',') as paused_tools,
                       chat_configured, email_enabled,
                       default_decisions = '{"low":"allow","medium":"allow","high":"require_approval","critical":"block"}'::jsonb
                           as defaults_as_set,
                       approval_ttl_seconds, time_zone, policy_set_version, workspace_version, updated_at
                  from workspaces where id = ?::uuid""", ws.workspaceId);
        assertThat(workspace).contains(
                entry("name", "Acme"),
                entry("created_at", Timestamp.from(created.occurredAt())),
                entry("kill_switch_enabled", false),
                entry("paused_tools", ""),
                entry("chat_configured", true),
                entry("email_enabled", false),
                entry("defaults_as_set", true),
                entry("approval_ttl_seconds", 900L),
                entry("time_zone", "Europe/Berlin"),
                entry("policy_set_version", ws.policySetVersion()),
                entry("workspace_version", ws.version()),
                entry("updated_at", Timestamp.from(revocation.occurredAt())));

        assertThat(jdbc.queryForList(
                "select user_id, email, role from workspace_members where workspace_id = ?::uuid order by user_id",
                ws.workspaceId)).containsExactly(
                Map.of("user_id", "alice", "email", "alice@example.com", "role", "admin"),
                Map.of("user_id", "rita", "email", "rita@example.com", "role", "reviewer"),
                Map.of("user_id", "user-owner", "email", "owner@example.com", "role", "owner"),
                Map.of("user_id", "vic", "email", "vic@example.com", "role", "viewer"));

        assertThat(jdbc.queryForList("""
                select policy_id::text as policy_id, name, priority, enabled, decision, description, condition,
                       match -> 'tools' = '["code_host"]'::jsonb as tools_match,
                       match -> 'actions' = '["pull_request.*"]'::jsonb as actions_match,
                       match -> 'riskLevels' = '["high"]'::jsonb as risks_match,
                       match -> 'sources' = '["proxy"]'::jsonb as sources_match
                  from policies where workspace_id = ?::uuid""", ws.workspaceId))
                .singleElement().satisfies(policy -> assertThat(policy).contains(
                        entry("policy_id", keptPolicy), entry("name", "merges need review"), entry("priority", 10),
                        entry("enabled", true), entry("decision", "require_approval"),
                        entry("description", "every merge is reviewed"), entry("condition", "target.branch == 'main'"),
                        entry("tools_match", true),
                        entry("actions_match", true), entry("risks_match", true), entry("sources_match", true)));

        assertThat(jdbc.queryForList("""
                select key_id::text as key_id, name, key_hash, array_to_string(scopes, ',') as scopes, expires_at,
                       revoked_at, created_at, agent_id, agent_id_pattern
                  from api_keys where workspace_id = ?::uuid order by name""", ws.workspaceId))
                .satisfiesExactly(
                        ci -> assertThat(ci).contains(entry("key_id", keptKey), entry("name", "ci"),
                                entry("key_hash", "hash-" + keptKey), entry("scopes", "evaluate,mcp"),
                                entry("expires_at", Timestamp.from(keyExpiry)), entry("revoked_at", null),
                                entry("agent_id", "release-bot"), entry("agent_id_pattern", null)),
                        old -> assertThat(old).contains(entry("key_id", revokedKey), entry("scopes", "proxy"),
                                entry("expires_at", null),
                                entry("revoked_at", Timestamp.from(revocation.occurredAt()))));

        // every administrative change, with who made it and a summary that names no secret
        assertThat(jdbc.queryForList("""
                select area, subject, summary, actor_user_id from admin_changes where workspace_id = ?::uuid
                 order by occurred_at, event_id""", ws.workspaceId))
                .extracting(row -> row.get("area") + " | " + row.get("subject") + " | " + row.get("summary") + " | "
                        + row.get("actor_user_id"))
                .containsExactlyInAnyOrder(
                        "workspace | null | workspace \"Acme\" created with owner user-owner | user-admin",
                        "member | alice | member alice set to admin | user-admin",
                        "member | bob | member bob set to member | user-admin",
                        "member | bob | member bob removed | user-admin",
                        "member | rita | member rita set to reviewer | user-admin",
                        "member | vic | member vic set to viewer | user-admin",
                        "notifications | null | notification settings: email off, chat webhook set | user-admin",
                        "defaults | null | defaults set: low allow, medium allow, high require_approval, critical block; approval TTL PT15M; time zone Europe/Berlin | user-admin",
                        "policy | " + keptPolicy + " | policy \"merges need review\" saved: priority 10, require_approval, with a condition | user-admin",
                        "policy | " + deletedPolicy + " | policy \"temporary\" saved: priority 20, block, disabled | user-admin",
                        "policy | " + deletedPolicy + " | policy " + deletedPolicy + " deleted | user-admin",
                        "api_key | " + keptKey + " | API key \"ci\" issued: evaluate, mcp, expires " + keyExpiry + " | user-admin",
                        "api_key | " + revokedKey + " | API key \"old\" issued: proxy | user-admin",
                        "api_key | " + revokedKey + " | API key " + revokedKey + " revoked | user-admin");
    }

    @Test
    void anEvaluationByAKeyIsItsLastUseToTheMinuteWrittenOncePerMinute() {
        WorkspaceEvents ws = new WorkspaceEvents();
        String keyId = UUID.randomUUID().toString();
        publisher.publish(ws.created("Keys"), ws.stateChange(c -> new ApiKeyIssued(keyId, "agent", "hash-" + keyId,
                Set.of(Scope.EVALUATE), null)));
        eventually().until(() -> jdbc.queryForObject("select count(*) from api_keys where key_id = ?::uuid", Long.class,
                keyId), n -> n == 1L);
        // every UPDATE statement that sets a key's last use, whether or not it changes a row
        jdbc.execute("""
                create table if not exists last_use_statements (n bigint not null);
                insert into last_use_statements select 0 where not exists (select 1 from last_use_statements);
                create or replace function count_last_use_statement() returns trigger language plpgsql as
                  $$ begin update last_use_statements set n = n + 1; return null; end $$;
                drop trigger if exists last_use_statements on api_keys;
                create trigger last_use_statements after update of last_used_at on api_keys
                  for each statement execute function count_last_use_statement();
                """);
        long before = jdbc.queryForObject("select n from last_use_statements", Long.class);
        Instant minute = Instant.parse("2026-11-30T10:00:00Z");
        ws.actingAs(Actor.apiKey("hash-" + keyId, "agent-1"));
        // sixty uses within one minute, in six batches of ten
        for (int batch = 0; batch < 6; batch++) {
            List<EventEnvelope> uses = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                uses.add(ws.occurringAt(minute.plusSeconds(batch * 10L + i)).evaluation("docs.read"));
            }
            publisher.publish(uses.toArray(EventEnvelope[]::new));
        }
        EventEnvelope last = ws.occurringAt(minute.plusSeconds(59)).evaluation("docs.search");
        publisher.publish(last);
        eventually().until(() -> jdbc.queryForObject("select count(*) from audit_log where command_id = ?", Long.class,
                last.commandId()), n -> n == 1L);
        assertThat(jdbc.queryForObject("select last_used_at from api_keys where key_id = ?::uuid", Timestamp.class, keyId))
                .as("the minute, not the instant: what a rebuild writes whatever its batches")
                .isEqualTo(Timestamp.from(minute));
        assertThat(jdbc.queryForObject("select n from last_use_statements", Long.class) - before)
                .as("one minute of uses, one statement").isEqualTo(1L);
        // the next minute is written once; a late use of an earlier minute moves nothing back
        publisher.publish(ws.occurringAt(minute.plusSeconds(61)).evaluation("docs.read"),
                ws.occurringAt(minute.plusSeconds(30)).evaluation("docs.read"));
        EventEnvelope next = ws.occurringAt(minute.plusSeconds(62)).evaluation("docs.read");
        publisher.publish(next);
        eventually().until(() -> jdbc.queryForObject("select count(*) from audit_log where command_id = ?", Long.class,
                next.commandId()), n -> n == 1L);
        assertThat(jdbc.queryForObject("select last_used_at from api_keys where key_id = ?::uuid", Timestamp.class, keyId))
                .isEqualTo(Timestamp.from(minute.plusSeconds(60)));
        assertThat(jdbc.queryForObject("select n from last_use_statements", Long.class) - before).isEqualTo(2L);
        ws.occurringAt(null);
        assertThat(jdbc.queryForObject("select count(*) from admin_changes where workspace_id = ?::uuid and area = 'api_key'",
                Long.class, ws.workspaceId)).isEqualTo(1L);
    }

    @Test
    void actionEvaluatedIsAnAuditRowWithEveryColumn() {
        WorkspaceEvents ws = new WorkspaceEvents();
        String policyId = UUID.randomUUID().toString();
        publisher.publish(ws.created("Audit"));
        ws.actingAs(Actor.apiKey("key-hash", "agent-7"));
        EventEnvelope evaluated = ws.record(commandId -> new ActionEvaluated(DerivedIds.auditLogId(commandId),
                Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH, RiskLevel.LOW, RiskClassification.SERVER_CLASSIFIED,
                false, Decision.REQUIRE_APPROVAL, "merges need review", policyId, "merges need review",
                DerivedIds.approvalId(commandId), "agent-7", "Release Bot", "pull_request", "acme/app#12",
                "ci-pipeline", ActionSource.PROXY, "{\"title\":\"Release\"}", true, 4096, null, null, AgentIdentity.BOUND,
                List.of(new ConditionError(policyId, "small transfers", "at position 5: key 'amount' is not present in map", false))));
        String auditLogId = DerivedIds.auditLogId(evaluated.commandId());
        publisher.publish(evaluated);

        Map<String, Object> audit = eventually().until(() -> auditRow(auditLogId), r -> r != null);
        assertThat(audit).containsExactlyInAnyOrderEntriesOf(row(
                "id", auditLogId,
                "workspace_id", ws.workspaceId,
                "event_id", evaluated.eventId(),
                "command_id", evaluated.commandId(),
                "correlation_id", evaluated.correlationId(),
                "occurred_at", Timestamp.from(evaluated.occurredAt()),
                "kind", "action_evaluated",
                "tool", "code_host",
                "action", "pull_request.merge",
                "risk_level", "high",
                "supplied_risk_level", "low",
                "risk_classification", "server_classified",
                "risk_overridden_by_caller", false,
                "decision", "require_approval",
                "reason", "merges need review",
                "matched_policy_id", policyId,
                "matched_policy_name", "merges need review",
                "approval_request_id", DerivedIds.approvalId(evaluated.commandId()),
                "agent_id", "agent-7",
                "agent_name", "Release Bot",
                "resource_type", "pull_request",
                "resource_id", "acme/app#12",
                "requested_by", "ci-pipeline",
                "source", "proxy",
                "payload_excerpt", "{\"title\":\"Release\"}",
                "payload_truncated", true,
                "payload_bytes", 4096,
                "policy_set_version", evaluated.policySetVersion(),
                "workspace_version", evaluated.workspaceVersion(),
                // an API key is not a user
                "actor_user_id", null,
                "undelivered", false,
                "agent_identity", "bound",
                "condition_errors", "[{\"error\": \"at position 5: key 'amount' is not present in map\", \"policyId\": \""
                        + policyId + "\", \"policyName\": \"small transfers\", \"countedAsMatch\": false}]"));
    }

    @Test
    void anEvaluationDecidedAfterItsDeadlineIsAnUndeliveredRow() {
        WorkspaceEvents ws = new WorkspaceEvents();
        publisher.publish(ws.created("Late"));
        ws.actingAs(Actor.apiKey("key-hash", "agent-7"));
        EventEnvelope late = ws.record(commandId -> new ActionEvaluated(DerivedIds.auditLogId(commandId),
                Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH, RiskLevel.LOW, RiskClassification.SERVER_CLASSIFIED,
                false, Decision.REQUIRE_APPROVAL, "merges need review", null, null, null, "agent-7", null, null, null,
                null, ActionSource.EVALUATE, "{}", false, 2, null, Boolean.TRUE));
        String auditLogId = DerivedIds.auditLogId(late.commandId());
        publisher.publish(late);
        Map<String, Object> audit = eventually().until(() -> auditRow(auditLogId), r -> r != null);
        assertThat(audit).contains(entry("undelivered", true), entry("decision", "require_approval"),
                entry("approval_request_id", null));
    }

    @Test
    void approvalRequestedIsAPendingApprovalCreatedWhenItOccurred() {
        WorkspaceEvents ws = new WorkspaceEvents();
        publisher.publish(ws.created("Approvals"));
        Instant expiresAt = Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MILLIS);
        EventEnvelope requested = ws.stateChange(commandId -> new ApprovalRequested(DerivedIds.approvalId(commandId),
                DerivedIds.auditLogId(commandId), Tool.MCP, "tools.delete_repo", RiskLevel.HIGH, "agent-9",
                "digest-abc", expiresAt));
        String approvalId = DerivedIds.approvalId(requested.commandId());
        publisher.publish(requested);

        Map<String, Object> approval = eventually().until(() -> first("""
                select id::text as id, workspace_id::text as workspace_id, audit_log_id::text as audit_log_id,
                       correlation_id, tool, action, risk_level, agent_id, call_digest, status, created_at, expires_at,
                       reviewed_at, reviewed_by, review_reason, execution_result, updated_at
                  from approval_requests where id = ?::uuid""", approvalId), r -> r != null);
        Timestamp occurredAt = Timestamp.from(requested.occurredAt());
        assertThat(approval).contains(
                entry("id", approvalId),
                entry("workspace_id", ws.workspaceId),
                entry("audit_log_id", DerivedIds.auditLogId(requested.commandId())),
                entry("correlation_id", requested.correlationId()),
                entry("tool", "mcp"),
                entry("action", "tools.delete_repo"),
                entry("risk_level", "high"),
                entry("agent_id", "agent-9"),
                entry("call_digest", "digest-abc"),
                entry("status", "pending"),
                entry("created_at", occurredAt),
                entry("expires_at", Timestamp.from(expiresAt)),
                entry("reviewed_at", null),
                entry("reviewed_by", null),
                entry("review_reason", null),
                entry("execution_result", null),
                entry("updated_at", occurredAt));
    }

    @Test
    void approvalRequestedKeepsTheViewOfItsHeldCallForReviewers() {
        WorkspaceEvents ws = new WorkspaceEvents();
        publisher.publish(ws.created("Views"));
        CallView view = new CallView("POST", "/graphql", null, "IssueDelete",
                "mutation IssueDelete($id: String!) { issueDelete(id: $id) { success } }", "{\"id\":\"ISS-42\"}",
                null, null, null, null, 99, false, true);
        EventEnvelope requested = ws.stateChange(commandId -> new ApprovalRequested(DerivedIds.approvalId(commandId),
                DerivedIds.auditLogId(commandId), Tool.ISSUE_TRACKER, "issue.delete", RiskLevel.HIGH, "agent-9",
                "digest-abc", Instant.now().plus(Duration.ofHours(1)), null, view));
        publisher.publish(requested);
        Map<String, Object> row = eventually().until(() -> first(
                "select call_view::text as call_view from approval_requests where id = ?::uuid",
                DerivedIds.approvalId(requested.commandId())), r -> r != null);
        assertThat(GatewayJson.MAPPER.readValue((String) row.get("call_view"), CallView.class)).isEqualTo(view);
    }

    @Test
    void killSwitchCallIsACriticalAuditRowAHistoryRowAndTheWorkspaceState() {
        WorkspaceEvents ws = new WorkspaceEvents();
        EventEnvelope created = ws.created("Kill switch");
        EventEnvelope enable = ws.stateChange(commandId -> new KillSwitchChanged(DerivedIds.auditLogId(commandId),
                KillSwitchAction.ENABLE, null, true, Set.of(), "agent deleting branches"));
        EventEnvelope pause = ws.stateChange(commandId -> new KillSwitchChanged(DerivedIds.auditLogId(commandId),
                KillSwitchAction.PAUSE_TOOL, Tool.MCP, true, Set.of(Tool.MCP, Tool.CHAT)));
        publisher.publish(created, enable, pause);
        String pauseAuditId = DerivedIds.auditLogId(pause.commandId());
        String enableAuditId = DerivedIds.auditLogId(enable.commandId());

        eventually().until(() -> auditRow(pauseAuditId), r -> r != null);
        assertThat(auditRow(enableAuditId)).contains(
                entry("kind", "kill_switch"),
                entry("action", "kill_switch.enable"),
                entry("risk_level", "critical"),
                entry("decision", null),
                entry("tool", null),
                entry("actor_user_id", "user-admin"),
                entry("correlation_id", enable.correlationId()),
                entry("occurred_at", Timestamp.from(enable.occurredAt())),
                entry("workspace_version", enable.workspaceVersion()));
        assertThat(auditRow(pauseAuditId)).contains(
                entry("kind", "kill_switch"),
                entry("action", "kill_switch.pause_tool"),
                entry("risk_level", "critical"),
                entry("decision", null),
                entry("tool", "mcp"),
                entry("actor_user_id", "user-admin"));

        assertThat(jdbc.queryForList("select reason from kill_switch_history where workspace_id = ?::uuid order by occurred_at",
                String.class, ws.workspaceId)).containsExactly("agent deleting branches", null);
        assertThat(jdbc.queryForList("""
                select audit_log_id::text as audit_log_id, action, tool, kill_switch_enabled,
                       array_to_string(paused_tools, ',') as paused_tools, actor_user_id, correlation_id, occurred_at
                  from kill_switch_history where workspace_id = ?::uuid order by occurred_at, action""", ws.workspaceId))
                .containsExactlyInAnyOrder(
                        row("audit_log_id", enableAuditId, "action", "enable", "tool", null,
                                "kill_switch_enabled", true, "paused_tools", "", "actor_user_id", "user-admin",
                                "correlation_id", enable.correlationId(), "occurred_at", Timestamp.from(enable.occurredAt())),
                        row("audit_log_id", pauseAuditId, "action", "pause_tool", "tool", "mcp",
                                "kill_switch_enabled", true, "paused_tools", "chat,mcp", "actor_user_id", "user-admin",
                                "correlation_id", pause.correlationId(), "occurred_at", Timestamp.from(pause.occurredAt())));

        assertThat(jdbc.queryForMap("""
                select kill_switch_enabled, array_to_string(paused_tools, ',') as paused_tools, workspace_version
                  from workspaces where id = ?::uuid""", ws.workspaceId))
                .containsExactlyInAnyOrderEntriesOf(Map.of("kill_switch_enabled", true, "paused_tools", "chat,mcp",
                        "workspace_version", pause.workspaceVersion()));
    }

    @Test
    void aCommandRefusedAtALimitIsAnAuditRowOfItsOwnKind() {
        WorkspaceEvents ws = new WorkspaceEvents();
        EventEnvelope created = ws.created("Limits");
        EventEnvelope limited = ws.record(commandId -> new LimitReached(DerivedIds.auditLogId(commandId), "policies", 1000,
                "upsert_policy", "Workspace holds its limit of 1000 policies (gateway.decision.limits.policies): delete a policy first"));
        publisher.publish(created, limited);
        String auditId = DerivedIds.auditLogId(limited.commandId());

        eventually().until(() -> auditRow(auditId), r -> r != null);
        assertThat(auditRow(auditId)).contains(
                entry("kind", "limit_reached"),
                entry("action", "upsert_policy"),
                entry("reason", "Workspace holds its limit of 1000 policies (gateway.decision.limits.policies): delete a policy first"),
                entry("risk_level", "low"),
                entry("decision", null),
                entry("tool", null),
                entry("actor_user_id", "user-admin"),
                entry("correlation_id", limited.correlationId()),
                entry("workspace_version", limited.workspaceVersion()));
    }

    @Test
    void evaluationUndeliveredMarksTheAuditRowAndTheApprovalItEndedExpires() {
        WorkspaceEvents ws = new WorkspaceEvents();
        publisher.publish(ws.created("Gave up"));
        ws.actingAs(Actor.apiKey("key-hash", "agent-7"));
        Instant expiresAt = Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MILLIS);
        EventEnvelope evaluated = ws.record(commandId -> new ActionEvaluated(DerivedIds.auditLogId(commandId),
                Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH, RiskLevel.HIGH, RiskClassification.SERVER_CLASSIFIED,
                false, Decision.REQUIRE_APPROVAL, "merges need review", null, null, DerivedIds.approvalId(commandId),
                "agent-7", null, null, null, null, ActionSource.PROXY, "{}", false, 2));
        String auditLogId = DerivedIds.auditLogId(evaluated.commandId());
        String approvalId = DerivedIds.approvalId(evaluated.commandId());
        EventEnvelope requested = ws.stateChange(c -> new ApprovalRequested(approvalId, auditLogId, Tool.CODE_HOST,
                "pull_request.merge", RiskLevel.HIGH, "agent-7", "ab".repeat(32), expiresAt, null));
        // a second evaluation, decided and given up on in the same batch: the mark lands after the row it marks
        EventEnvelope sameBatch = ws.evaluation("page.read");
        String sameBatchAudit = DerivedIds.auditLogId(sameBatch.commandId());
        ws.actingAs(Actor.system("ingress"));
        publisher.publish(evaluated, requested, sameBatch,
                ws.record(c -> new EvaluationUndelivered(sameBatchAudit, sameBatch.commandId(), null, 503)));
        eventually().until(() -> auditRow(sameBatchAudit), r -> r != null && Boolean.TRUE.equals(r.get("undelivered")));
        assertThat(auditRow(auditLogId)).contains(entry("undelivered", false));

        EventEnvelope marked = ws.stateChange(c -> new EvaluationUndelivered(auditLogId, evaluated.commandId(), approvalId, 504));
        publisher.publish(marked, ws.stateChange(c -> new ApprovalExpired(approvalId, marked.occurredAt())));

        eventually().until(() -> auditRow(auditLogId), r -> Boolean.TRUE.equals(r.get("undelivered")));
        assertThat(eventually().until(() -> first("select status from approval_requests where id = ?::uuid", approvalId),
                r -> "expired".equals(r.get("status")))).containsEntry("status", "expired");
        // everything else of the entry is as it was recorded
        assertThat(auditRow(auditLogId)).contains(entry("decision", "require_approval"),
                entry("approval_request_id", approvalId), entry("event_id", evaluated.eventId()),
                entry("command_id", evaluated.commandId()));
        // redelivered: nothing moves back or twice
        publisher.publish(marked, evaluated);
        publisher.publish(ws.evaluation("page.write"));
        eventually().until(() -> jdbc.queryForObject(
                "select count(*) from audit_log where workspace_id = ?::uuid", Long.class, ws.workspaceId), n -> n == 3);
        assertThat(auditRow(auditLogId)).contains(entry("undelivered", true));
    }

    private Map<String, Object> auditRow(String auditLogId) {
        return first("""
                select id::text as id, workspace_id::text as workspace_id, event_id::text as event_id, command_id,
                       correlation_id, occurred_at, kind, tool, action, risk_level, supplied_risk_level,
                       risk_classification, risk_overridden_by_caller, decision, reason, matched_policy_id,
                       matched_policy_name, approval_request_id::text as approval_request_id, agent_id, agent_name,
                       resource_type, resource_id, requested_by, source, actor_user_id, payload_excerpt,
                       payload_truncated, payload_bytes, policy_set_version, workspace_version, undelivered, agent_identity,
                       condition_errors::text as condition_errors
                  from audit_log where id = ?::uuid""", auditLogId);
    }

    /** A row as JDBC returns it; unlike Map.of it takes nulls. */
    private static Map<String, Object> row(Object... columnsAndValues) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < columnsAndValues.length; i += 2) {
            row.put((String) columnsAndValues[i], columnsAndValues[i + 1]);
        }
        return row;
    }

    private Map<String, Object> first(String sql, Object... args) {
        List<Map<String, Object>> rows = jdbc.queryForList(sql, args);
        return rows.isEmpty() ? null : rows.get(0);
    }
}
