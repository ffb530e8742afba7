package io.agentgateway.decisionstream.topology;

import static io.agentgateway.decisionstream.topology.TestWorkspace.action;
import static io.agentgateway.decisionstream.topology.TestWorkspace.matchActions;
import static io.agentgateway.decisionstream.topology.TestWorkspace.matchTools;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.call.CallDigest;
import io.agentgateway.decisioncore.state.PendingApproval;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class EvaluateActionTest {
    private static final String INVALID_KEY = "Invalid or expired API key";

    @TempDir
    Path stateDir;
    DecisionDriver driver;
    TestWorkspace workspace;

    @BeforeEach
    void start() {
        driver = new DecisionDriver(DecisionSettings.defaults().withPayloadExcerptBytes(64), stateDir);
        workspace = TestWorkspace.create(driver);
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Nested
    class Authentication {

        @Test
        void an_unknown_key_is_refused_and_leaves_no_trace() {
            workspace.as(workspace.agent(TestWorkspace.sha256("agk_unknown")), action(Tool.CHAT, "message.send", RiskLevel.LOW).build())
                    .refused(ReplyStatus.UNAUTHORIZED, INVALID_KEY);
        }

        @Test
        void a_key_of_another_workspace_is_refused() {
            TestWorkspace other = TestWorkspace.create(driver);
            workspace.as(workspace.agent(other.evaluateKeyHash()), action(Tool.CHAT, "message.send", RiskLevel.LOW).build())
                    .refused(ReplyStatus.UNAUTHORIZED, INVALID_KEY);
        }

        @Test
        void a_workspace_that_does_not_exist_answers_like_a_bad_key() {
            CommandEnvelope envelope = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                    action(Tool.CHAT, "message.send", RiskLevel.LOW).build());
            String missing = UUID.randomUUID().toString();
            CommandEnvelope elsewhere = new CommandEnvelope(1, envelope.commandId(), missing, envelope.correlationId(),
                    envelope.acceptedAt(), envelope.replyPartition(), envelope.actor(), envelope.command());
            driver.send(elsewhere).refused(ReplyStatus.UNAUTHORIZED, INVALID_KEY);
            assertThat(driver.workspaceStates().get(missing)).as("nothing stored for a missing workspace").isNull();
        }

        @Test
        void a_revoked_key_is_refused_from_the_revocation_on() {
            workspace.evaluate(Tool.CHAT, "message.send", RiskLevel.LOW).ok();
            String keyId = keyIdOf(workspace.evaluateKeyHash());
            workspace.admin(new RevokeApiKey(keyId)).ok();

            workspace.evaluate(Tool.CHAT, "message.send", RiskLevel.LOW).refused(ReplyStatus.UNAUTHORIZED, INVALID_KEY);
        }

        @Test
        void an_expired_key_is_refused_at_and_after_its_expiry_by_acceptedAt() {
            String hash = workspace.issueKey(Set.of(Scope.EVALUATE), workspace.now().plusSeconds(5));
            Actor agent = workspace.agent(hash);
            workspace.as(agent, action(Tool.CHAT, "message.send", RiskLevel.LOW).build()).ok();

            workspace.advance(Duration.ofSeconds(5));
            workspace.as(agent, action(Tool.CHAT, "message.send", RiskLevel.LOW).build())
                    .refused(ReplyStatus.UNAUTHORIZED, INVALID_KEY);
        }

        @Test
        void a_key_without_the_required_scope_is_refused() {
            String mcpOnly = workspace.issueKey(Set.of(Scope.MCP), null);
            workspace.as(workspace.agent(mcpOnly), action(Tool.CHAT, "message.send", RiskLevel.LOW).scope(Scope.EVALUATE).build())
                    .refused(ReplyStatus.UNAUTHORIZED, INVALID_KEY);
            workspace.as(workspace.agent(mcpOnly), action(Tool.MCP, "search_docs", RiskLevel.LOW).scope(Scope.MCP).build()).ok();
        }

        @Test
        void a_user_cannot_evaluate_even_as_owner() {
            workspace.as(workspace.owner, action(Tool.CHAT, "message.send", RiskLevel.LOW).build())
                    .refused(ReplyStatus.UNAUTHORIZED, INVALID_KEY);
        }

        private String keyIdOf(String hash) {
            return driver.workspaceStates().get(workspace.id).apiKeyByHash(hash).orElseThrow().keyId();
        }
    }

    @Nested
    class DecisionOrder {

        @Test
        void built_in_defaults_per_risk_level() {
            assertDefault(RiskLevel.LOW, Decision.ALLOW);
            assertDefault(RiskLevel.MEDIUM, Decision.ALLOW);
            assertDefault(RiskLevel.HIGH, Decision.REQUIRE_APPROVAL);
            assertDefault(RiskLevel.CRITICAL, Decision.BLOCK);
        }

        private void assertDefault(RiskLevel risk, Decision expected) {
            EvaluationOutcome outcome = workspace.evaluate(Tool.DOCS, "page.edit", risk).evaluation();
            assertThat(outcome.decision()).isEqualTo(expected);
            assertThat(outcome.reason()).isEqualTo("No policy matched; workspace default for " + risk.wire()
                    + " risk is " + expected.wire());
            assertThat(outcome.matchedPolicyId()).isNull();
        }

        @Test
        void changed_defaults_apply_and_unnamed_levels_keep_theirs() {
            workspace.admin(new SetWorkspaceDefaults(Map.of(RiskLevel.LOW, Decision.REQUIRE_APPROVAL), null)).ok();

            TestWorkspace.assertDecision(workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW), Decision.REQUIRE_APPROVAL);
            TestWorkspace.assertDecision(workspace.evaluate(Tool.DOCS, "page.edit", RiskLevel.MEDIUM), Decision.ALLOW);
            TestWorkspace.assertDecision(workspace.evaluate(Tool.DOCS, "page.drop", RiskLevel.CRITICAL), Decision.BLOCK);
        }

        @Test
        void the_kill_switch_blocks_before_any_policy_and_disabling_restores_the_policies() {
            String allowAll = workspace.upsertPolicy("allow everything", 1, Decision.ALLOW, PolicyMatch.any());
            workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();

            EvaluationOutcome blocked = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).evaluation();
            assertThat(blocked.decision()).isEqualTo(Decision.BLOCK);
            assertThat(blocked.reason()).isEqualTo("Workspace kill switch is enabled");
            assertThat(blocked.matchedPolicyId()).isNull();

            workspace.admin(new SetKillSwitch(KillSwitchAction.DISABLE, null)).ok();
            EvaluationOutcome allowed = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).evaluation();
            assertThat(allowed.decision()).isEqualTo(Decision.ALLOW);
            assertThat(allowed.matchedPolicyId()).isEqualTo(allowAll);
        }

        @Test
        void a_kill_switch_already_in_the_store_blocks_every_tool() {
            WorkspaceState stored = driver.workspaceStates().get(workspace.id);
            driver.workspaceStates().put(workspace.id, stored.withKillSwitch(true, Set.of()));

            for (Tool tool : Tool.values()) {
                EvaluationOutcome outcome = workspace.evaluate(tool, "read", RiskLevel.LOW).evaluation();
                assertThat(outcome.decision()).as(tool.wire()).isEqualTo(Decision.BLOCK);
                assertThat(outcome.reason()).isEqualTo("Workspace kill switch is enabled");
            }
        }

        @Test
        void pausing_a_tool_blocks_only_that_tool_until_resumed() {
            workspace.upsertPolicy("allow everything", 1, Decision.ALLOW, PolicyMatch.any());
            workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CODE_HOST)).ok();

            EvaluationOutcome paused = workspace.evaluate(Tool.CODE_HOST, "read", RiskLevel.LOW).evaluation();
            assertThat(paused.decision()).isEqualTo(Decision.BLOCK);
            assertThat(paused.reason()).isEqualTo("Tool code_host is paused");
            TestWorkspace.assertDecision(workspace.evaluate(Tool.ISSUE_TRACKER, "read", RiskLevel.LOW), Decision.ALLOW);
            TestWorkspace.assertDecision(workspace.evaluate(Tool.MCP, "list_files", RiskLevel.LOW), Decision.ALLOW);

            workspace.admin(new SetKillSwitch(KillSwitchAction.RESUME_TOOL, Tool.CODE_HOST)).ok();
            TestWorkspace.assertDecision(workspace.evaluate(Tool.CODE_HOST, "read", RiskLevel.LOW), Decision.ALLOW);
        }

        @Test
        void the_kill_switch_wins_over_a_paused_tool() {
            workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CHAT)).ok();
            workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
            assertThat(workspace.evaluate(Tool.CHAT, "message.send", RiskLevel.LOW).evaluation().reason())
                    .isEqualTo("Workspace kill switch is enabled");
        }

        @Test
        void the_lowest_priority_number_wins() {
            workspace.upsertPolicy("late allow", 20, Decision.ALLOW, matchTools(Tool.CHAT));
            String early = workspace.upsertPolicy("early block", 10, Decision.BLOCK, matchTools(Tool.CHAT));

            EvaluationOutcome outcome = workspace.evaluate(Tool.CHAT, "message.send", RiskLevel.LOW).evaluation();
            assertThat(outcome.decision()).isEqualTo(Decision.BLOCK);
            assertThat(outcome.matchedPolicyId()).isEqualTo(early);
            assertThat(outcome.reason()).contains("early block");
        }

        @Test
        void equal_priorities_are_ordered_by_policy_id() {
            String lowId = "00000000-0000-4000-8000-000000000001";
            String highId = "ffffffff-0000-4000-8000-000000000001";
            workspace.upsert(new Policy(highId, "high id", 5, true, Decision.ALLOW, PolicyMatch.any(), null));
            workspace.upsert(new Policy(lowId, "low id", 5, true, Decision.BLOCK, PolicyMatch.any(), null));

            assertThat(workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).evaluation().matchedPolicyId())
                    .isEqualTo(lowId);
        }

        @Test
        void a_disabled_policy_is_skipped() {
            String id = UUID.randomUUID().toString();
            workspace.upsert(new Policy(id, "disabled block", 1, false, Decision.BLOCK, PolicyMatch.any(), null));
            EvaluationOutcome outcome = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).evaluation();
            assertThat(outcome.decision()).isEqualTo(Decision.ALLOW);
            assertThat(outcome.matchedPolicyId()).isNull();
        }

        @Test
        void action_globs_match_any_run_of_characters() {
            String pulls = workspace.upsertPolicy("pull requests", 1, Decision.BLOCK, matchActions("pull_request.*"));
            String suffix = workspace.upsertPolicy("creations", 2, Decision.REQUIRE_APPROVAL, matchActions("*.create"));
            String middle = workspace.upsertPolicy("issue anything", 3, Decision.ALLOW, matchActions("issue*update"));

            assertThat(workspace.evaluate(Tool.CODE_HOST, "pull_request.merge", RiskLevel.LOW).evaluation().matchedPolicyId())
                    .isEqualTo(pulls);
            assertThat(workspace.evaluate(Tool.CODE_HOST, "release.create", RiskLevel.LOW).evaluation().matchedPolicyId())
                    .isEqualTo(suffix);
            assertThat(workspace.evaluate(Tool.CODE_HOST, "issues.update", RiskLevel.LOW).evaluation().matchedPolicyId())
                    .isEqualTo(middle);
            // '.' is literal, not "any character"
            assertThat(workspace.evaluate(Tool.CODE_HOST, "pull_requestXmerge", RiskLevel.LOW).evaluation().matchedPolicyId())
                    .isNull();
        }

        @Test
        void agent_resource_risk_and_source_fields_must_all_hold() {
            PolicyMatch match = new PolicyMatch(Set.of(Tool.INTERNAL_API), List.of(), Set.of(RiskLevel.HIGH),
                    List.of("deploy-*"), List.of("service"), List.of("prod-*"), Set.of(ActionSource.PROXY));
            String policy = workspace.upsertPolicy("prod deploys", 1, Decision.BLOCK, match);

            assertThat(evaluateInternal("deploy-bot", "prod-api", RiskLevel.HIGH, ActionSource.PROXY).matchedPolicyId())
                    .isEqualTo(policy);
            assertThat(evaluateInternal("other-bot", "prod-api", RiskLevel.HIGH, ActionSource.PROXY).matchedPolicyId()).isNull();
            assertThat(evaluateInternal("deploy-bot", "staging-api", RiskLevel.HIGH, ActionSource.PROXY).matchedPolicyId()).isNull();
            assertThat(evaluateInternal("deploy-bot", "prod-api", RiskLevel.MEDIUM, ActionSource.PROXY).matchedPolicyId()).isNull();
            assertThat(evaluateInternal("deploy-bot", "prod-api", RiskLevel.HIGH, ActionSource.MCP).matchedPolicyId()).isNull();
            assertThat(evaluateInternal(null, "prod-api", RiskLevel.HIGH, ActionSource.PROXY).matchedPolicyId())
                    .as("a policy for certain agents does not apply to an anonymous call")
                    .isNull();
        }

        private EvaluationOutcome evaluateInternal(String agent, String resourceId, RiskLevel risk, ActionSource source) {
            return workspace.evaluate(action(Tool.INTERNAL_API, "service.deploy", risk)
                    .agent(agent).resource("service", resourceId).source(source).scope(Scope.EVALUATE).build()).evaluation();
        }

        @Test
        void policies_match_on_the_server_classified_risk_not_the_supplied_one() {
            String critical = workspace.upsertPolicy("critical", 1, Decision.BLOCK,
                    new PolicyMatch(Set.of(), List.of(), Set.of(RiskLevel.CRITICAL), List.of(), List.of(), List.of(), Set.of()));
            assertThat(workspace.evaluate(Tool.CODE_HOST, "file.delete", RiskLevel.LOW).evaluation().matchedPolicyId())
                    .isEqualTo(critical);
        }
    }

    @Nested
    class AuditEntry {

        @Test
        void every_evaluation_emits_one_action_evaluated_with_the_derived_audit_id() {
            CommandEnvelope envelope = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                    action(Tool.MCP, "create_issue", RiskLevel.MEDIUM).build());
            Emitted emitted = driver.send(envelope);

            EvaluationOutcome outcome = emitted.evaluation();
            ActionEvaluated audit = emitted.only(ActionEvaluated.class);
            assertThat(emitted.notifications()).isEmpty();
            assertThat(outcome.auditLogId()).isEqualTo(DerivedIds.auditLogId(envelope.commandId()));
            assertThat(audit.auditLogId()).isEqualTo(outcome.auditLogId());
            assertThat(audit.decision()).isEqualTo(Decision.ALLOW);
            assertThat(audit.riskClassification()).isEqualTo(RiskClassification.CALLER_SUPPLIED);
            assertThat(audit.agentId()).isEqualTo("agent-7");
            assertThat(audit.source()).isEqualTo(ActionSource.EVALUATE);
            assertThat(audit.payloadExcerpt()).isNull();
            assertThat(audit.payloadBytes()).isZero();

            EventEnvelope event = emitted.events().get(0);
            assertThat(event.eventId()).isEqualTo(DerivedIds.eventId(envelope.commandId(), 0));
            assertThat(event.occurredAt()).isEqualTo(envelope.acceptedAt());
            assertThat(event.correlationId()).isEqualTo(envelope.correlationId());
            assertThat(event.commandId()).isEqualTo(envelope.commandId());
            assertThat(event.actor()).isEqualTo(envelope.actor());
        }

        @Test
        void a_small_payload_is_kept_whole_as_compact_json() {
            ObjectNode payload = GatewayJson.MAPPER.createObjectNode().put("title", "Fix bug").put("n", 3);
            ActionEvaluated audit = workspace.evaluate(action(Tool.CHAT, "message.send", RiskLevel.LOW).payload(payload).build())
                    .only(ActionEvaluated.class);
            assertThat(audit.payloadExcerpt()).isEqualTo("{\"title\":\"Fix bug\",\"n\":3}");
            assertThat(audit.payloadTruncated()).isFalse();
            assertThat(audit.payloadBytes()).isEqualTo(audit.payloadExcerpt().length());
        }

        @Test
        void a_large_payload_is_cut_to_the_byte_limit() {
            ObjectNode payload = GatewayJson.MAPPER.createObjectNode().put("body", "x".repeat(500));
            ActionEvaluated audit = workspace.evaluate(action(Tool.CHAT, "message.send", RiskLevel.LOW).payload(payload).build())
                    .only(ActionEvaluated.class);
            assertThat(audit.payloadExcerpt().getBytes(StandardCharsets.UTF_8)).hasSize(64);
            assertThat(audit.payloadExcerpt()).startsWith("{\"body\":\"xxx");
            assertThat(audit.payloadTruncated()).isTrue();
            assertThat(audit.payloadBytes()).isEqualTo(GatewayJson.MAPPER.writeValueAsString(payload).length());
        }

        @Test
        void the_cut_never_splits_a_multibyte_character() {
            // {"t":" is 6 bytes, each € is 3: the 64-byte limit falls inside the 20th €
            ObjectNode payload = GatewayJson.MAPPER.createObjectNode().put("t", "€".repeat(40));
            ActionEvaluated audit = workspace.evaluate(action(Tool.CHAT, "message.send", RiskLevel.LOW).payload(payload).build())
                    .only(ActionEvaluated.class);
            assertThat(audit.payloadExcerpt()).isEqualTo("{\"t\":\"" + "€".repeat(19));
            assertThat(audit.payloadExcerpt().getBytes(StandardCharsets.UTF_8)).hasSize(63);
            assertThat(audit.payloadTruncated()).isTrue();
            assertThat(audit.payloadBytes()).isEqualTo(6 + 40 * 3 + 2);
        }
    }

    @Nested
    class Approvals {

        @Test
        void require_approval_opens_a_pending_approval_bound_to_the_call() {
            ObjectNode payload = GatewayJson.MAPPER.createObjectNode().put("path", "README.md");
            CommandEnvelope envelope = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                    action(Tool.CODE_HOST, "file.write", RiskLevel.LOW).payload(payload).build());
            Emitted emitted = driver.send(envelope);

            EvaluationOutcome outcome = emitted.evaluation();
            String approvalId = DerivedIds.approvalId(envelope.commandId());
            assertThat(outcome.decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
            assertThat(outcome.approvalRequestId()).isEqualTo(approvalId);

            assertThat(emitted.events()).hasSize(2);
            assertThat(emitted.event(0, ActionEvaluated.class).approvalRequestId()).isEqualTo(approvalId);
            ApprovalRequested requested = emitted.event(1, ApprovalRequested.class);
            assertThat(requested.approvalId()).isEqualTo(approvalId);
            assertThat(requested.auditLogId()).isEqualTo(outcome.auditLogId());
            assertThat(requested.expiresAt()).isEqualTo(envelope.acceptedAt().plus(Duration.ofHours(24)));
            assertThat(requested.callDigest()).isEqualTo(CallDigest.of(Tool.CODE_HOST, "file.write", payload)).hasSize(64);
            assertThat(requested.riskLevel()).isEqualTo(RiskLevel.HIGH);
            assertThat(emitted.events().get(1).eventId()).isEqualTo(DerivedIds.eventId(envelope.commandId(), 1));

            WorkspaceState state = driver.workspaceStates().get(workspace.id);
            assertThat(driver.approvals(workspace.id)).containsEntry(approvalId,
                    PendingApproval.opened(requested.expiresAt(), requested.callDigest(), Tool.CODE_HOST, "file.write", null,
                            "someone@example.com", envelope.acceptedAt(), workspace.evaluateKeyHash()));
            // what an MCP task of it says before the read model has it (the key it is bound to is the one that asked)
            assertThat(outcome.approvalCreatedAt()).isEqualTo(envelope.acceptedAt());
            assertThat(outcome.approvalExpiresAt()).isEqualTo(requested.expiresAt());
            assertThat(requested.heldCall()).as("evaluate-action holds no call: its caller makes it").isNull();
            assertThat(emitted.events()).allSatisfy(e -> assertThat(e.workspaceVersion()).isEqualTo(state.workspaceVersion()));
        }

        @Test
        void the_workspace_approval_ttl_sets_the_expiry() {
            workspace.admin(new SetWorkspaceDefaults(null, Duration.ofMinutes(30))).ok();
            CommandEnvelope envelope = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                    action(Tool.DOCS, "page.publish", RiskLevel.HIGH).build());
            ApprovalRequested requested = driver.send(envelope).event(1, ApprovalRequested.class);
            assertThat(requested.expiresAt()).isEqualTo(envelope.acceptedAt().plus(Duration.ofMinutes(30)));
        }

        @Test
        void allow_and_block_open_no_approval_and_do_not_change_the_state() {
            long before = driver.workspaceStates().get(workspace.id).workspaceVersion();
            Emitted allowed = workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW);
            assertThat(allowed.evaluation().approvalRequestId()).isNull();
            assertThat(allowed.only(ActionEvaluated.class).approvalRequestId()).isNull();
            assertThat(allowed.events().get(0).workspaceVersion()).isEqualTo(before);
            assertThat(driver.workspaceStates().get(workspace.id).workspaceVersion()).isEqualTo(before);
        }

        @Test
        void expired_approvals_leave_the_state_when_stream_time_passes_their_expiry() {
            workspace.admin(new SetWorkspaceDefaults(null, Duration.ofMinutes(1))).ok();
            String first = workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).evaluation().approvalRequestId();
            workspace.advance(Duration.ofMinutes(2));
            Emitted later = workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH);
            String second = later.evaluation().approvalRequestId();
            assertThat(driver.approvals(workspace.id)).containsOnlyKeys(second);
            assertThat(later.events()).filteredOn(e -> e.event() instanceof ApprovalExpired)
                    .singleElement().satisfies(e -> assertThat(((ApprovalExpired) e.event()).approvalId()).isEqualTo(first));
            assertThat(driver.workspaceStates().get(workspace.id).openApprovalCount()).isEqualTo(1);
        }
    }

    @Test
    void a_member_cannot_reach_evaluation_decisions_through_admin_roles() {
        Actor member = workspace.member("plain", Role.MEMBER);
        workspace.as(member, action(Tool.CHAT, "message.send", RiskLevel.LOW).build())
                .refused(ReplyStatus.UNAUTHORIZED, INVALID_KEY);
    }

    @Test
    void an_evaluation_without_action_is_invalid_after_authentication() {
        workspace.evaluate(action(Tool.CHAT, " ", RiskLevel.LOW).build())
                .refused(ReplyStatus.INVALID, "action must be a non-empty string");
        workspace.evaluate(action(Tool.CHAT, "message.send", null).build())
                .refused(ReplyStatus.INVALID, "riskLevel must be one of low, medium, high, critical");
    }
}
