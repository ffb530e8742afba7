package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.ApiKeyRevoked;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.MemberRemoved;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.event.NotificationSettingsSet;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * At-least-once delivery: the same events arrive again (a redelivered batch, a replay of the log).
 * Nothing may be added twice, and no current state may go back to an older version. Each test
 * ends with a marker event behind the redelivered ones in the same partition: once the marker's
 * row is there, the redelivered events were processed.
 */
class RedeliveryAndReplayTest extends ProjectorTestCase {
    private static final List<String> TABLES = List.of("audit_log", "approval_requests", "kill_switch_history",
            "workspace_members", "policies", "api_keys", "admin_changes");

    RedeliveryAndReplayTest() {
        super("projector_redelivery");
    }

    @Test
    void aBatchDeliveredTwiceAddsNoRowAndChangesNothing() {
        WorkspaceEvents ws = new WorkspaceEvents();
        String policyId = UUID.randomUUID().toString();
        String keyId = UUID.randomUUID().toString();
        List<EventEnvelope> batch = List.of(
                ws.created("Twice"),
                ws.stateChange(c -> new MemberSet("dora", "dora@example.com", Role.ADMIN)),
                ws.policyChange(c -> new PolicyUpserted(new Policy(policyId, "block deletes", 1, true, Decision.BLOCK,
                        PolicyMatch.any(), null))),
                ws.stateChange(c -> new ApiKeyIssued(keyId, "agent", "hash-" + keyId, Set.of(Scope.EVALUATE), null)),
                ws.stateChange(c -> new KillSwitchChanged(DerivedIds.auditLogId(c), KillSwitchAction.PAUSE_TOOL,
                        Tool.DOCS, false, Set.of(Tool.DOCS))),
                ws.evaluation("docs.read"),
                ws.evaluation("docs.search"),
                ws.stateChange(c -> new ApprovalRequested(DerivedIds.approvalId(c), DerivedIds.auditLogId(c), Tool.CODE_HOST,
                        "file.delete", RiskLevel.CRITICAL, "agent-1", "digest", Instant.now().plus(Duration.ofHours(1)))),
                ws.evaluation("docs.write"));
        publisher.publish(batch);
        awaitAuditRow(batch.get(batch.size() - 1));
        Map<String, Long> rowsBefore = rowCounts(ws);
        Map<String, Object> workspaceBefore = workspaceRow(ws);
        assertThat(rowsBefore).contains(entry("audit_log", 4L), entry("approval_requests", 1L),
                entry("kill_switch_history", 1L), entry("workspace_members", 2L), entry("policies", 1L),
                entry("api_keys", 1L), entry("admin_changes", 4L));

        publisher.publish(batch);
        EventEnvelope marker = ws.evaluation("docs.marker");
        publisher.publish(marker);
        awaitAuditRow(marker);

        Map<String, Long> expected = new LinkedHashMap<>(rowsBefore);
        expected.put("audit_log", rowsBefore.get("audit_log") + 1); // the marker
        assertThat(rowCounts(ws)).isEqualTo(expected);
        assertThat(workspaceRow(ws)).isEqualTo(workspaceBefore);
    }

    @Test
    void anOlderWorkspaceVersionNeverOverwritesANewerOne() {
        WorkspaceEvents ws = new WorkspaceEvents();
        publisher.publish(
                ws.created("Versions"),
                ws.stateChange(c -> new KillSwitchChanged(DerivedIds.auditLogId(c), KillSwitchAction.ENABLE, null, true,
                        Set.of(Tool.MCP))),
                ws.stateChange(c -> new NotificationSettingsSet(true, true)),
                ws.policyChange(c -> new WorkspaceDefaultsSet(Map.of(RiskLevel.LOW, Decision.ALLOW), Duration.ofMinutes(5))));
        long newest = ws.version();
        eventually().until(() -> workspaceRow(ws).get("workspace_version"), version -> version.equals(newest));
        Map<String, Object> newer = workspaceRow(ws);

        publisher.publish(
                ws.atVersion(newest - 2, c -> new KillSwitchChanged(DerivedIds.auditLogId(c), KillSwitchAction.DISABLE,
                        null, false, Set.of())),
                ws.atVersion(newest - 1, c -> new NotificationSettingsSet(false, false)),
                ws.atVersion(newest - 1, c -> new WorkspaceDefaultsSet(Map.of(RiskLevel.LOW, Decision.BLOCK), Duration.ofSeconds(1))));
        EventEnvelope marker = ws.evaluation("docs.marker");
        publisher.publish(marker);
        awaitAuditRow(marker);

        assertThat(workspaceRow(ws)).isEqualTo(newer).contains(entry("kill_switch_enabled", true),
                entry("paused_tools", "mcp"), entry("chat_configured", true), entry("email_enabled", true),
                entry("default_decisions", "{\"low\": \"allow\"}"), entry("approval_ttl_seconds", 300L),
                entry("workspace_version", newest));
    }

    @Test
    void aReplayNeitherBringsBackARemovedMemberNorADeletedPolicy() {
        WorkspaceEvents ws = new WorkspaceEvents();
        String policyId = UUID.randomUUID().toString();
        EventEnvelope memberSet = ws.stateChange(c -> new MemberSet("carol", "carol@example.com", Role.ADMIN));
        EventEnvelope policyUpserted = ws.policyChange(c -> new PolicyUpserted(new Policy(policyId, "allow reads", 5,
                true, Decision.ALLOW, PolicyMatch.any(), null)));
        publisher.publish(ws.created("Replay"));
        publisher.publish(
                memberSet,
                ws.stateChange(c -> new MemberRemoved("carol")),
                policyUpserted,
                ws.policyChange(c -> new PolicyDeleted(policyId)));
        long newest = ws.version();
        eventually().until(() -> workspaceRow(ws).get("workspace_version"), version -> version.equals(newest));

        publisher.publish(memberSet, policyUpserted);
        EventEnvelope marker = ws.evaluation("docs.marker");
        publisher.publish(marker);
        awaitAuditRow(marker);

        assertThat(jdbc.queryForList("select user_id from workspace_members where workspace_id = ?::uuid", String.class,
                ws.workspaceId)).containsExactly("user-owner");
        assertThat(rowCounts(ws)).containsEntry("policies", 0L);
        assertThat(workspaceRow(ws)).containsEntry("workspace_version", newest);
    }

    @Test
    void aRedeliveredIssueNeitherUnrevokesAKeyNorResetsAReviewedApproval() {
        WorkspaceEvents ws = new WorkspaceEvents();
        String keyId = UUID.randomUUID().toString();
        EventEnvelope issued = ws.stateChange(c -> new ApiKeyIssued(keyId, "agent", "hash-" + keyId, Set.of(Scope.MCP), null));
        EventEnvelope revoked = ws.stateChange(c -> new ApiKeyRevoked(keyId));
        EventEnvelope approvalRequested = ws.stateChange(c -> new ApprovalRequested(DerivedIds.approvalId(c),
                DerivedIds.auditLogId(c), Tool.MCP, "tools.drop_table", RiskLevel.HIGH, null, "digest",
                Instant.now().plus(Duration.ofHours(1))));
        String approvalId = DerivedIds.approvalId(approvalRequested.commandId());
        publisher.publish(ws.created("Keys"), issued, revoked, approvalRequested);
        eventually().until(() -> jdbc.queryForObject("select count(*) from approval_requests where id = ?::uuid",
                Long.class, approvalId), count -> count == 1);
        // a reviewer acted
        publisher.publish(ws.stateChange(c -> new ApprovalReviewed(approvalId, ReviewVerdict.APPROVE, "user-admin", null,
                Instant.now(), Tool.MCP, "tools.drop_table", "digest", null)));
        eventually().until(() -> jdbc.queryForObject("select status from approval_requests where id = ?::uuid",
                String.class, approvalId), "approved"::equals);

        publisher.publish(issued, approvalRequested);
        EventEnvelope marker = ws.evaluation("docs.marker");
        publisher.publish(marker);
        awaitAuditRow(marker);

        assertThat(jdbc.queryForList("select revoked_at from api_keys where key_id = ?::uuid", Timestamp.class, keyId))
                .containsExactly(Timestamp.from(revoked.occurredAt()));
        assertThat(jdbc.queryForObject("select status from approval_requests where id = ?::uuid", String.class, approvalId))
                .isEqualTo("approved");
    }

    private void awaitAuditRow(EventEnvelope evaluation) {
        String auditLogId = DerivedIds.auditLogId(evaluation.commandId());
        eventually().until(() -> jdbc.queryForObject("select count(*) from audit_log where id = ?::uuid", Long.class,
                auditLogId), count -> count == 1);
    }

    private Map<String, Long> rowCounts(WorkspaceEvents ws) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String table : TABLES) {
            counts.put(table, jdbc.queryForObject("select count(*) from " + table + " where workspace_id = ?::uuid",
                    Long.class, ws.workspaceId));
        }
        return counts;
    }

    private Map<String, Object> workspaceRow(WorkspaceEvents ws) {
        return jdbc.queryForMap("""
                select name, kill_switch_enabled, array_to_string(paused_tools, ',') as paused_tools, chat_configured,
                       email_enabled, default_decisions::text as default_decisions, approval_ttl_seconds,
                       policy_set_version, workspace_version, updated_at
                  from workspaces where id = ?::uuid""", ws.workspaceId);
    }
}
