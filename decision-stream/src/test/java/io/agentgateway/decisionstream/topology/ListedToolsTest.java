package io.agentgateway.decisionstream.topology;

import static io.agentgateway.decisionstream.topology.TestWorkspace.matchActions;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.event.ActionEvaluated;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: an MCP {@code tools/list} names the upstream's tools, and its decision says which of them a
 * {@code tools/call} would be blocked for whatever its arguments; the gate lists the others. Every case also sends
 * the calls themselves and checks that what is hidden is exactly what the same state blocks at every risk level
 * ({@code arguments._risk} can name any).
 */
class ListedToolsTest extends OneWorkspaceTopologyTest {
    private static final List<String> TOOLS = List.of("list_issues", "create_issue", "delete_repository", "search");

    Actor agent;

    @BeforeEach
    void start() {
        agent = workspace.agent(workspace.issueKey(Set.of(Scope.MCP), null));
    }

    @Test
    void a_tool_a_policy_blocks_outright_is_hidden_and_its_call_is_blocked() {
        assertThat(list(TOOLS).hiddenTools()).as("no policy: nothing hidden").isEmpty();

        workspace.upsertPolicy("no deletions", 10, Decision.BLOCK, matchActions("delete_*"));

        EvaluationOutcome listed = list(TOOLS);
        assertThat(listed.decision()).isEqualTo(Decision.ALLOW);
        assertThat(listed.hiddenTools()).containsExactly("delete_repository");
        assertListingAgreesWithCalls(TOOLS, listed);
    }

    @Test
    void a_block_that_depends_on_the_arguments_does_not_hide_the_tool() {
        // risk levels: the caller's _risk picks one, so a block at high and critical leaves low and medium callable
        workspace.upsertPolicy("no risky deletions", 10, Decision.BLOCK, new PolicyMatch(Set.of(Tool.MCP),
                List.of("delete_*"), EnumSet.of(RiskLevel.HIGH, RiskLevel.CRITICAL), List.of(), List.of(), List.of(), Set.of()));
        // resources: a tools/call names none, so a policy on a resource never blocks one
        workspace.upsertPolicy("not that repository", 20, Decision.BLOCK, new PolicyMatch(Set.of(Tool.MCP),
                List.of("create_*"), Set.of(), List.of(), List.of("repository"), List.of("acme/*"), Set.of()));

        EvaluationOutcome listed = list(TOOLS);
        assertThat(listed.hiddenTools()).isEmpty();
        assertListingAgreesWithCalls(TOOLS, listed);
        assertThat(call("delete_repository", RiskLevel.HIGH).decision()).as("its name's risk").isEqualTo(Decision.BLOCK);
        assertThat(call("delete_repository", RiskLevel.LOW).decision()).as("_risk low").isEqualTo(Decision.ALLOW);
    }

    @Test
    void a_tool_that_needs_approval_is_listed() {
        workspace.upsertPolicy("hold deletions", 10, Decision.REQUIRE_APPROVAL, matchActions("delete_*"));

        EvaluationOutcome listed = list(TOOLS);
        assertThat(listed.hiddenTools()).isEmpty();
        assertThat(call("delete_repository", RiskLevel.HIGH).decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
    }

    @Test
    void a_policy_disabled_or_deleted_later_shows_the_tool_again_on_the_next_list() {
        String policyId = workspace.upsertPolicy("no deletions", 10, Decision.BLOCK, matchActions("delete_*"));
        assertThat(list(TOOLS).hiddenTools()).containsExactly("delete_repository");

        workspace.upsert(new Policy(policyId, "no deletions", 10, false, Decision.BLOCK, matchActions("delete_*"), null));
        EvaluationOutcome afterDisable = list(TOOLS);
        assertThat(afterDisable.hiddenTools()).isEmpty();
        assertListingAgreesWithCalls(TOOLS, afterDisable);

        workspace.upsert(new Policy(policyId, "no deletions", 10, true, Decision.BLOCK, matchActions("delete_*"), null));
        assertThat(list(TOOLS).hiddenTools()).containsExactly("delete_repository");
        workspace.admin(new DeletePolicy(policyId)).ok();
        assertThat(list(TOOLS).hiddenTools()).isEmpty();
    }

    @Test
    void the_workspace_defaults_hide_what_no_policy_lets_through_at_any_risk() {
        Map<RiskLevel, Decision> blockAll = new EnumMap<>(RiskLevel.class);
        Arrays.stream(RiskLevel.values()).forEach(level -> blockAll.put(level, Decision.BLOCK));
        workspace.admin(new SetWorkspaceDefaults(blockAll, null)).ok();
        workspace.upsertPolicy("listing and reads", 10, Decision.ALLOW, matchActions("tools/list", "list_*", "search"));

        EvaluationOutcome listed = list(TOOLS);
        assertThat(listed.hiddenTools()).containsExactly("create_issue", "delete_repository");
        assertListingAgreesWithCalls(TOOLS, listed);
    }

    @Test
    void what_is_hidden_depends_on_the_listing_agent_as_the_calls_do() {
        workspace.upsertPolicy("agent 7 deletes nothing", 10, Decision.BLOCK, new PolicyMatch(Set.of(), List.of("delete_*"),
                Set.of(), List.of("agent-7"), List.of(), List.of(), Set.of()));

        assertThat(list(TOOLS).hiddenTools()).containsExactly("delete_repository");
        EvaluationOutcome asAnother = outcome(workspace.as(agent, listing(TOOLS).withAgentId("agent-8")));
        assertThat(asAnother.hiddenTools()).isEmpty();
    }

    @Test
    void a_listing_that_is_not_allowed_hides_nothing_because_nothing_is_listed() {
        workspace.upsertPolicy("no deletions", 10, Decision.BLOCK, matchActions("delete_*"));
        workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.MCP)).ok();

        EvaluationOutcome paused = list(TOOLS);
        assertThat(paused.decision()).isEqualTo(Decision.BLOCK);
        assertThat(paused.hiddenTools()).isNull();

        workspace.admin(new SetKillSwitch(KillSwitchAction.RESUME_TOOL, Tool.MCP)).ok();
        workspace.upsertPolicy("hold listings", 5, Decision.REQUIRE_APPROVAL, matchActions("tools/list"));
        EvaluationOutcome held = list(TOOLS);
        assertThat(held.decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        assertThat(held.hiddenTools()).isNull();
    }

    @Test
    void a_listing_is_one_audit_entry_and_other_evaluations_carry_no_hidden_tools() {
        workspace.upsertPolicy("no deletions", 10, Decision.BLOCK, matchActions("delete_*"));
        Emitted emitted = workspace.as(agent, listing(TOOLS));
        ActionEvaluated audit = emitted.only(ActionEvaluated.class);
        assertThat(audit.action()).isEqualTo("tools/list");
        assertThat(audit.decision()).isEqualTo(Decision.ALLOW);
        assertThat(emitted.notifications()).isEmpty();

        assertThat(call("list_issues", RiskLevel.LOW).hiddenTools()).isNull();
        assertThat(outcome(workspace.as(agent, listing(List.of()))).hiddenTools()).isEmpty();
    }

    @Test
    void a_redelivered_listing_gets_the_first_answer_again() {
        String policyId = workspace.upsertPolicy("no deletions", 10, Decision.BLOCK, matchActions("delete_*"));
        CommandEnvelope envelope = workspace.envelope(agent, listing(TOOLS));
        assertThat(outcome(driver.send(envelope)).hiddenTools()).containsExactly("delete_repository");
        workspace.admin(new DeletePolicy(policyId)).ok();

        assertThat(outcome(driver.send(envelope)).hiddenTools()).as("same command id: the stored outcome")
                .containsExactly("delete_repository");
        assertThat(list(TOOLS).hiddenTools()).as("a new listing: decided afresh").isEmpty();
    }

    @Test
    void listed_tools_are_bounded_and_only_for_the_mcp_gate() {
        List<String> most = IntStream.range(0, EvaluateAction.MAX_LISTED_TOOLS).mapToObj(i -> "tool_" + i).toList();
        assertThat(list(most).hiddenTools()).isEmpty();

        List<String> tooMany = new ArrayList<>(most);
        tooMany.add("one_more");
        invalid(listing(tooMany), "listedTools must name at most 1000 tools");
        invalid(listing(List.of("ok", " ")), "listedTools must be non-empty names of at most 256 characters");
        invalid(listing(List.of("x".repeat(257))), "listedTools must be non-empty names of at most 256 characters");
        invalid(listing(Collections.singletonList(null)), "listedTools must be non-empty names of at most 256 characters");
        EvaluateAction notMcp = new EvaluateAction(Tool.CHAT, "tools/list", RiskLevel.LOW, null, null, null, null, null,
                null, ActionSource.MCP, Scope.MCP, false, null, null, null, List.of("a"));
        invalid(notMcp, "listedTools is only for the MCP gate's tools/list (tool mcp)");
    }

    @Test
    void hidden_is_exactly_what_the_calls_block_at_every_risk_under_random_policies() {
        Random random = new Random(15);
        List<String> names = List.of("get_file", "list_repos", "delete_branch", "drop_table", "send_mail", "merge_pr",
                "deploy", "read_secret");
        List<String> globs = List.of("*", "delete_*", "d*", "*_pr", "send_mail", "get_*", "read_*", "deploy", "*e*");
        for (int round = 0; round < 6; round++) {
            List<String> policyIds = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(5); i++) {
                Set<RiskLevel> levels = random.nextInt(3) == 0
                        ? EnumSet.of(RiskLevel.values()[random.nextInt(4)], RiskLevel.values()[random.nextInt(4)])
                        : Set.of();
                List<String> actions = List.of(globs.get(random.nextInt(globs.size())));
                List<String> agents = random.nextInt(4) == 0 ? List.of("agent-" + random.nextInt(9)) : List.of();
                Decision decision = Decision.values()[random.nextInt(Decision.values().length)];
                policyIds.add(workspace.upsertPolicy("p" + i, 1 + random.nextInt(20), decision, new PolicyMatch(Set.of(),
                        actions, levels, agents, List.of(), List.of(), Set.of())));
            }
            // keep the listing itself allowed
            String listingAllowed = workspace.upsertPolicy("listing", 0, Decision.ALLOW, matchActions("tools/list"));
            EvaluationOutcome listed = list(names);
            assertThat(listed.decision()).isEqualTo(Decision.ALLOW);
            assertListingAgreesWithCalls(names, listed);
            for (String id : policyIds) {
                workspace.admin(new DeletePolicy(id)).ok();
            }
            workspace.admin(new DeletePolicy(listingAllowed)).ok();
        }
    }

    /** Every listed tool: hidden exactly when its call is blocked at each of the four risk levels. */
    private void assertListingAgreesWithCalls(List<String> names, EvaluationOutcome listed) {
        for (String name : names) {
            boolean blockedAtEveryRisk = Arrays.stream(RiskLevel.values())
                    .allMatch(level -> call(name, level).decision() == Decision.BLOCK);
            assertThat(listed.hiddenTools().contains(name)).as("%s hidden (every call blocked: %s)", name, blockedAtEveryRisk)
                    .isEqualTo(blockedAtEveryRisk);
        }
    }

    private EvaluationOutcome list(List<String> names) {
        return outcome(workspace.as(agent, listing(names)));
    }

    private static EvaluateAction listing(List<String> names) {
        return new EvaluateAction(Tool.MCP, "tools/list", RiskLevel.LOW, null, null, null, null,
                GatewayJson.MAPPER.createObjectNode(), null, ActionSource.MCP, Scope.MCP, false, null, null, null, names);
    }

    /** A tools/call as the gate sends it, at the risk its caller's {@code _risk} (or its name) gives. */
    private EvaluationOutcome call(String name, RiskLevel risk) {
        return outcome(workspace.as(agent, new EvaluateAction(Tool.MCP, name, risk, null, null, null, null,
                GatewayJson.MAPPER.createObjectNode(), null, ActionSource.MCP, Scope.MCP, true, null)));
    }

    private static EvaluationOutcome outcome(Emitted emitted) {
        return emitted.evaluation();
    }

    private void invalid(EvaluateAction command, String error) {
        workspace.as(agent, command).refused(ReplyStatus.INVALID, error);
    }
}
