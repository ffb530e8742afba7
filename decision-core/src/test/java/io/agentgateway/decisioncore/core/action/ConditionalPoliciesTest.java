package io.agentgateway.decisioncore.core.action;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.condition.CompiledCondition;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.condition.ConditionLimits;
import io.agentgateway.decisioncore.core.CoreWorkspace;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.ConditionError;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Policies with conditions decided by the core: the rules security teams write, the evasions (each ends blocked or
 * held), the fail-closed rule and its audit trail, conditions refused in log order, the workspace's time zone, and
 * conditions compiled once per policy set rather than per decision.
 */
class ConditionalPoliciesTest {
    private final CoreWorkspace workspace = CoreWorkspace.create();

    private String policy(String name, int priority, Decision decision, Set<Tool> tools, List<String> actions, String condition) {
        String id = UUID.randomUUID().toString();
        PolicyMatch match = new PolicyMatch(tools, actions, Set.of(), List.of(), List.of(), List.of(), Set.of());
        workspace.admin(new UpsertPolicy(new Policy(id, name, priority, true, decision, match, null, condition))).ok();
        return id;
    }

    private Decided evaluate(Tool tool, String action, String payload) {
        return evaluate(tool, action, null, payload);
    }

    private Decided evaluate(Tool tool, String action, String resourceId, String payload) {
        // as evaluate-action sends it: with what reviewers would be shown of the payload (the payload is still whole)
        return workspace.evaluate(new EvaluateAction(tool, action, RiskLevel.MEDIUM, "agent-7", null, resourceId == null ? null : "repository",
                resourceId, payload == null ? null : GatewayJson.MAPPER.readTree(payload), "alice", ActionSource.EVALUATE,
                Scope.EVALUATE, false).withCallView(new io.agentgateway.schemas.call.CallView(null, null, null, null, null, null,
                null, null, payload, null, payload == null ? 0 : payload.length(), false, false))).ok();
    }

    private static Decision decision(Decided decided) {
        return decided.decision().evaluation().decision();
    }

    @Test
    void a_file_write_under_the_workflows_folder_is_blocked_however_the_path_is_spelled() {
        String id = policy("no workflow edits", 1, Decision.BLOCK, Set.of(Tool.CODE_HOST), List.of("file.write"),
                "target.path.startsWith('.github/workflows/')");

        for (String path : List.of(".github/workflows/x.yml", ".github/./workflows/x.yml", ".github//workflows/x.yml",
                "%2egithub/workflows/x.yml", ".GITHUB/WORKFLOWS/x.yml", "src/../.github/workflows/x.yml")) {
            Decided decided = evaluate(Tool.CODE_HOST, "file.write", "acme/api", "{\"path\":\"" + path + "\"}");
            assertThat(decision(decided)).as(path).isEqualTo(Decision.BLOCK);
            assertThat(decided.decision().evaluation().matchedPolicyId()).isEqualTo(id);
        }
        assertThat(decision(evaluate(Tool.CODE_HOST, "file.write", "acme/api", "{\"path\":\"src/main.py\"}")))
                .as("the default for medium risk").isNotEqualTo(Decision.BLOCK);
        Decided noPath = evaluate(Tool.CODE_HOST, "file.write", "acme/api", "{\"content\":\"x\"}");
        assertThat(decision(noPath)).as("a path missing: fail closed").isEqualTo(Decision.BLOCK);
        assertThat(noPath.event(0, ActionEvaluated.class).conditionErrors()).singleElement()
                .isEqualTo(new ConditionError(id, "no workflow edits", "at position 7: key 'path' is not present in map", true));
    }

    @Test
    void a_merge_into_main_of_a_production_repository_is_held_and_other_branches_are_not() {
        policy("hold merges into main", 1, Decision.REQUIRE_APPROVAL, Set.of(Tool.CODE_HOST), List.of("pull_request.merge"),
                "target.repository in ['acme/payments', 'acme/api'] && target.branch == 'main'");

        assertThat(decision(evaluate(Tool.CODE_HOST, "pull_request.merge", "acme/api#7", "{\"base\":\"main\"}")))
                .isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(decision(evaluate(Tool.CODE_HOST, "pull_request.merge", "Acme/API#7", "{\"base\":\"refs/heads/main\"}")))
                .as("a branch given as a ref, the repository in another case").isEqualTo(Decision.REQUIRE_APPROVAL);
        workspace.admin(new SetWorkspaceDefaults(Map.of(RiskLevel.HIGH, Decision.ALLOW), null)).ok();
        assertThat(decision(evaluate(Tool.CODE_HOST, "pull_request.merge", "acme/api#7", "{\"base\":\"release\"}")))
                .isEqualTo(Decision.ALLOW);
        assertThat(decision(evaluate(Tool.CODE_HOST, "pull_request.merge", "acme/docs#7", "{\"base\":\"main\"}")))
                .isEqualTo(Decision.ALLOW);
        assertThat(decision(evaluate(Tool.CODE_HOST, "pull_request.merge", "acme/api#7", "{}")))
                .as("the base branch unknown: fail closed").isEqualTo(Decision.REQUIRE_APPROVAL);
    }

    @Test
    void an_issue_delete_is_blocked_unless_the_issue_carries_the_label() {
        policy("keep unlabelled issues", 1, Decision.BLOCK, Set.of(Tool.ISSUE_TRACKER), List.of("issue.delete"),
                "!('deletable' in target.labels)");

        assertThat(decision(evaluate(Tool.ISSUE_TRACKER, "issue.delete", "{\"id\":\"ISS-1\",\"labels\":[\"Deletable\"]}")))
                .isNotEqualTo(Decision.BLOCK);
        assertThat(decision(evaluate(Tool.ISSUE_TRACKER, "issue.delete", "{\"id\":\"ISS-1\",\"labels\":[\"bug\"]}")))
                .isEqualTo(Decision.BLOCK);
        assertThat(decision(evaluate(Tool.ISSUE_TRACKER, "issue.delete", "{\"id\":\"ISS-1\"}")))
                .as("labels unknown (a lookup that failed): fail closed").isEqualTo(Decision.BLOCK);
    }

    @Test
    void a_chat_message_to_a_channel_outside_the_company_is_held() {
        policy("hold external messages", 1, Decision.REQUIRE_APPROVAL, Set.of(Tool.CHAT), List.of("message.send"),
                "!(args.channel in ['C-ENG', 'C-OPS'])");
        workspace.admin(new SetWorkspaceDefaults(Map.of(RiskLevel.LOW, Decision.ALLOW), null)).ok();

        assertThat(decision(workspace.evaluate(chat("{\"channel\":\"C-ENG\",\"text\":\"hi\"}")).ok())).isEqualTo(Decision.ALLOW);
        assertThat(decision(workspace.evaluate(chat("{\"channel\":\"C-PARTNER\",\"text\":\"hi\"}")).ok()))
                .isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(decision(workspace.evaluate(chat("{\"text\":\"hi\"}")).ok())).as("no channel: fail closed")
                .isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(decision(workspace.evaluate(chat("{\"channel\":[\"C-ENG\"],\"text\":\"hi\"}")).ok()))
                .as("a list is not a channel name").isEqualTo(Decision.REQUIRE_APPROVAL);
    }

    private static EvaluateAction chat(String payload) {
        return new EvaluateAction(Tool.CHAT, "message.send", RiskLevel.LOW, "agent-7", null, null, null,
                GatewayJson.MAPPER.readTree(payload), null, ActionSource.EVALUATE, Scope.EVALUATE, false);
    }

    @Test
    void a_transfer_over_a_thousand_is_held_whether_the_amount_is_an_integer_or_a_double_and_a_string_fails_closed() {
        policy("hold large transfers", 1, Decision.REQUIRE_APPROVAL, Set.of(Tool.MCP), List.of("transfer_funds"),
                "args.amount > 1000");

        assertThat(decision(evaluate(Tool.MCP, "transfer_funds", "{\"amount\":1500}"))).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(decision(evaluate(Tool.MCP, "transfer_funds", "{\"amount\":1500.0}"))).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(decision(evaluate(Tool.MCP, "transfer_funds", "{\"amount\":999.99}"))).isEqualTo(Decision.ALLOW);
        assertThat(decision(evaluate(Tool.MCP, "transfer_funds", "{\"amount\":\"1500\"}"))).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(decision(evaluate(Tool.MCP, "transfer_funds", "{\"currency\":\"EUR\"}"))).isEqualTo(Decision.REQUIRE_APPROVAL);
    }

    @Test
    void reads_are_allowed_only_during_business_hours_in_the_workspaces_time_zone() {
        // the clock of CoreWorkspace starts on Sunday 2026-03-01 10:00 UTC
        policy("reads in business hours", 1, Decision.ALLOW, Set.of(), List.of("read"),
                "!(time.weekday in ['saturday', 'sunday']) && time.hour >= 9 && time.hour < 18");
        policy("no other reads", 2, Decision.BLOCK, Set.of(), List.of("read"), null);

        assertThat(decision(evaluate(Tool.CODE_HOST, "read", null))).as("a Sunday").isEqualTo(Decision.BLOCK);
        workspace.advance(Duration.ofHours(24)); // Monday 10:00 UTC
        assertThat(decision(evaluate(Tool.CODE_HOST, "read", null))).isEqualTo(Decision.ALLOW);
        Decided zone = workspace.admin(new SetWorkspaceDefaults(null, null, "America/Los_Angeles")).ok();
        assertThat(zone.event(0, WorkspaceDefaultsSet.class).timeZone()).isEqualTo("America/Los_Angeles");
        assertThat(decision(evaluate(Tool.CODE_HOST, "read", null))).as("02:00 in Los Angeles").isEqualTo(Decision.BLOCK);
        assertThat(workspace.admin(new SetWorkspaceDefaults(null, null, "Mars/Olympus")).status()).isEqualTo(ReplyStatus.INVALID);
    }

    @Test
    void an_allow_whose_condition_fails_does_not_match_and_the_audit_entry_says_so() {
        String allow = policy("allow small transfers", 1, Decision.ALLOW, Set.of(Tool.MCP), List.of("transfer_funds"),
                "args.amount < 100");
        policy("hold the rest", 2, Decision.REQUIRE_APPROVAL, Set.of(Tool.MCP), List.of("transfer_funds"), null);

        assertThat(decision(evaluate(Tool.MCP, "transfer_funds", "{\"amount\":50}"))).isEqualTo(Decision.ALLOW);
        Decided failed = evaluate(Tool.MCP, "transfer_funds", "{\"amount\":\"50\"}");

        assertThat(decision(failed)).isEqualTo(Decision.REQUIRE_APPROVAL);
        ActionEvaluated audit = failed.event(0, ActionEvaluated.class);
        assertThat(audit.conditionErrors()).singleElement().satisfies(error -> {
            assertThat(error.policyId()).isEqualTo(allow);
            assertThat(error.countedAsMatch()).isFalse();
            assertThat(error.error()).contains("No matching overload");
        });
        assertThat(audit.reason()).isEqualTo("Matched policy \"hold the rest\": require_approval");
    }

    @Test
    void a_block_whose_condition_fails_matches_and_its_reason_says_it_failed_closed() {
        policy("block big", 1, Decision.BLOCK, Set.of(Tool.MCP), List.of("transfer_funds"), "args.amount > 1000");

        Decided decided = evaluate(Tool.MCP, "transfer_funds", "{}");

        assertThat(decision(decided)).isEqualTo(Decision.BLOCK);
        assertThat(decided.decision().evaluation().reason()).isEqualTo("Matched policy \"block big\": block (its condition could"
                + " not be evaluated: at position 5: key 'amount' is not present in map; fail closed)");
    }

    @Test
    void arguments_padded_over_the_limit_end_held_never_allowed() {
        CoreWorkspace small = CoreWorkspace.create(DecisionSettings.defaults()
                .withConditions(ConditionLimits.defaults().withMaxArgumentsBytes(1024)));
        String id = UUID.randomUUID().toString();
        small.admin(new UpsertPolicy(new Policy(id, "hold large transfers", 1, true, Decision.REQUIRE_APPROVAL,
                new PolicyMatch(Set.of(Tool.MCP), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of()), null,
                "args.amount > 1000"))).ok();

        Decided padded = small.evaluate(new EvaluateAction(Tool.MCP, "transfer_funds", RiskLevel.LOW, null, null, null, null,
                GatewayJson.MAPPER.readTree("{\"amount\":5000,\"memo\":\"" + "x".repeat(2000) + "\"}"), null,
                ActionSource.EVALUATE, Scope.EVALUATE, false)).ok();

        assertThat(padded.decision().evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(padded.event(0, ActionEvaluated.class).conditionErrors()).singleElement()
                .satisfies(e -> assertThat(e.error()).startsWith("args are 2025 bytes, over the 1024 a condition may read"));
    }

    @Test
    void a_condition_that_does_not_compile_is_refused_in_log_order_with_its_position() {
        Policy bad = new Policy(UUID.randomUUID().toString(), "bad", 1, true, Decision.BLOCK, null, null, "args.amount >> 3");

        Decided refused = workspace.admin(new UpsertPolicy(bad));

        assertThat(refused.status()).isEqualTo(ReplyStatus.INVALID);
        assertThat(refused.decision().error()).startsWith("condition: line 1, column 14: ");
        assertThat(workspace.state().policies()).isEmpty();
    }

    @Test
    void a_webhook_is_decided_on_its_whole_payload() {
        workspace.admin(new io.agentgateway.schemas.command.UpsertToolConnection(Tool.CODE_HOST,
                new io.agentgateway.schemas.ToolConnectionConfig(List.of("acme/api"), null, null, null), null, null, null, null,
                null, null)).ok();
        policy("hold pushes to main", 1, Decision.REQUIRE_APPROVAL, Set.of(Tool.CODE_HOST), List.of("push"),
                "target.branch == 'main'");

        Decided main = workspace.as(io.agentgateway.schemas.Actor.system("webhook-verifier"), new ReceiveWebhook(Tool.CODE_HOST, UUID.randomUUID().toString(), "push", null, "octocat",
                "repository", "acme/api", GatewayJson.MAPPER.readTree("{\"ref\":\"refs/heads/main\",\"repository\":{\"full_name\":\"acme/api\","
                        + "\"name\":\"api\",\"owner\":{\"login\":\"acme\"}}}")));

        assertThat(main.status()).isEqualTo(ReplyStatus.OK);
        assertThat(main.decision().evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
    }

    @Test
    void conditions_are_compiled_when_the_policy_is_written_and_linked_once_per_policy_set() {
        policy("hold large transfers", 1, Decision.REQUIRE_APPROVAL, Set.of(Tool.MCP), List.of("transfer_funds"), "args.amount > 1000");
        Map<String, CompiledCondition> linked = workspace.state().config().policies()
                .conditions(ConditionEnvironment.of(ConditionLimits.defaults()));

        for (int i = 0; i < 5; i++) {
            evaluate(Tool.MCP, "transfer_funds", "{\"amount\":" + i + "}");
        }

        assertThat(workspace.state().config().policies().conditions(ConditionEnvironment.of(ConditionLimits.defaults())))
                .isSameAs(linked);
    }
}
