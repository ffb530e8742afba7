package io.agentgateway.decisioncore.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.classification.RiskClassifier;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link OutrightBlocks} on plain workspace states, without Kafka. */
class OutrightBlocksTest {
    private static final List<String> TOOLS = List.of("list_issues", "delete_repository", "delete_repository", "search");
    private static final ActionRequest LISTING = new ActionRequest(Tool.MCP, "tools/list", RiskLevel.LOW, "agent-7", null,
            null, ActionSource.MCP, AgentIdentity.ASSERTED);

    private final OutrightBlocks blocks = new OutrightBlocks(new RiskClassifier(), new ActionDecider());
    private final WorkspaceState empty = WorkspaceState.absent(Duration.ofHours(24));

    @Test
    void hides_each_outright_blocked_name_once_in_listed_order() {
        WorkspaceState state = empty.withPolicy(policy("p1", Decision.BLOCK, match(List.of("delete_*"), Set.of(), null)));
        assertThat(blocks.hidden(state, LISTING, TOOLS)).containsExactly("delete_repository");
        assertThat(blocks.hidden(empty, LISTING, TOOLS)).isEmpty();
    }

    @Test
    void a_block_at_some_risk_levels_or_on_another_source_or_identity_hides_nothing() {
        WorkspaceState state = empty
                .withPolicy(policy("p1", Decision.BLOCK, match(List.of("delete_*"), EnumSet.of(RiskLevel.HIGH, RiskLevel.CRITICAL), null)))
                .withPolicy(new Policy("p2", "proxy only", 20, true, Decision.BLOCK, new PolicyMatch(Set.of(), List.of("search"),
                        Set.of(), List.of(), List.of(), List.of(), Set.of(ActionSource.PROXY)), null))
                .withPolicy(policy("p3", Decision.BLOCK, match(List.of("list_*"), Set.of(), AgentIdentity.BOUND)));
        assertThat(blocks.hidden(state, LISTING, TOOLS)).isEmpty();
    }

    @Test
    void an_allow_before_a_block_keeps_the_tool_and_a_block_before_an_allow_hides_it() {
        Policy allowSearch = new Policy("a", "allow search", 5, true, Decision.ALLOW, match(List.of("search"), Set.of(), null), null);
        Policy blockAll = new Policy("b", "block everything", 10, true, Decision.BLOCK, match(List.of("*"), Set.of(), null), null);
        assertThat(blocks.hidden(empty.withPolicy(allowSearch).withPolicy(blockAll), LISTING, TOOLS))
                .containsExactly("list_issues", "delete_repository");

        Policy allowLater = new Policy("a", "allow search", 20, true, Decision.ALLOW, match(List.of("search"), Set.of(), null), null);
        assertThat(blocks.hidden(empty.withPolicy(allowLater).withPolicy(blockAll), LISTING, TOOLS))
                .containsExactly("list_issues", "delete_repository", "search");
    }

    @Test
    void a_conditional_block_hides_nothing_and_a_conditional_allow_before_a_block_keeps_the_tool() {
        Policy blockBig = new Policy("c", "block big deletes", 5, true, Decision.BLOCK, match(List.of("delete_*"), Set.of(), null),
                null, "args.count > 10");
        assertThat(blocks.hidden(empty.withPolicy(blockBig), LISTING, TOOLS)).as("the arguments decide").isEmpty();

        Policy allowDryRuns = new Policy("a", "allow dry runs", 1, true, Decision.ALLOW, match(List.of("delete_*"), Set.of(), null),
                null, "args.dryRun == true");
        Policy blockDeletes = new Policy("b", "block deletes", 10, true, Decision.BLOCK, match(List.of("delete_*"), Set.of(), null), null);
        assertThat(blocks.hidden(empty.withPolicy(allowDryRuns).withPolicy(blockDeletes), LISTING, TOOLS)).isEmpty();
        assertThat(blocks.hidden(empty.withPolicy(blockBig).withPolicy(blockDeletes), LISTING, TOOLS))
                .as("blocked whether the conditional block matches or not").containsExactly("delete_repository");
    }

    private static Policy policy(String id, Decision decision, PolicyMatch match) {
        return new Policy(id, id, 10, true, decision, match, null);
    }

    private static PolicyMatch match(List<String> actions, Set<RiskLevel> levels, AgentIdentity identity) {
        return new PolicyMatch(Set.of(), actions, levels, List.of(), List.of(), List.of(), Set.of(), identity);
    }
}
