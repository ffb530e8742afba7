package io.agentgateway.decisioncore.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.state.PolicySet;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PolicyMatcherTest {

    @Test
    void a_star_is_any_run_of_characters_and_everything_else_is_literal() {
        assertThat(PolicyMatcher.glob("*", "")).isTrue();
        assertThat(PolicyMatcher.glob("*", "anything")).isTrue();
        assertThat(PolicyMatcher.glob("deploy-*", "deploy-bot")).isTrue();
        assertThat(PolicyMatcher.glob("deploy-*", "deploy-")).isTrue();
        assertThat(PolicyMatcher.glob("deploy-*", "my-deploy-bot")).isFalse();
        assertThat(PolicyMatcher.glob("*.merge", "pull_request.merge")).isTrue();
        assertThat(PolicyMatcher.glob("*.merge", "pull_request.merged")).isFalse();
        assertThat(PolicyMatcher.glob("a*b*c", "aXbYbZc")).isTrue();
        assertThat(PolicyMatcher.glob("a*b*c", "aXbYbZ")).isFalse();
        assertThat(PolicyMatcher.glob("a**c", "abc")).isTrue();
        assertThat(PolicyMatcher.glob("repo.?", "repo.x")).as("? is literal").isFalse();
        assertThat(PolicyMatcher.glob("team1.*", "team10.read")).isFalse();
        assertThat(PolicyMatcher.glob("", "")).isTrue();
        assertThat(PolicyMatcher.glob("", "x")).isFalse();
        assertThat(PolicyMatcher.glob("x", "")).isFalse();
    }

    @Test
    void the_per_tool_lists_give_the_same_first_match_as_trying_every_policy_in_order() {
        Random random = new Random(42);
        List<Policy> policies = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Set<Tool> tools = switch (random.nextInt(3)) {
                case 0 -> Set.of();
                case 1 -> Set.of(Tool.values()[random.nextInt(Tool.values().length)]);
                default -> Set.of(Tool.values()[random.nextInt(3)], Tool.values()[3 + random.nextInt(3)]);
            };
            List<String> agents = random.nextBoolean() ? List.of() : List.of("agent-" + random.nextInt(20) + "*");
            policies.add(new Policy("p" + i, "policy " + i, random.nextInt(50), random.nextInt(10) > 0,
                    Decision.values()[random.nextInt(Decision.values().length)],
                    i % 17 == 0 ? null : new PolicyMatch(tools, List.of(), Set.of(), agents, List.of(), List.of(), Set.of()),
                    null));
        }
        PolicySet set = PolicySet.of(policies);
        PolicyMatcher matcher = new PolicyMatcher();
        for (Tool tool : Tool.values()) {
            for (int agent = 0; agent < 25; agent++) {
                ActionRequest request = new ActionRequest(tool, "x.y", RiskLevel.LOW, "agent-" + agent, null, null,
                        ActionSource.EVALUATE);
                Policy everyPolicy = set.enabledInOrder().stream()
                        .filter(p -> matcher.matches(p.match(), request)).findFirst().orElse(null);
                Policy perTool = set.enabledInOrderFor(tool).stream()
                        .filter(p -> matcher.matches(p.match(), request)).findFirst().orElse(null);
                assertThat(perTool).as("%s %s", tool, request.agentId()).isEqualTo(everyPolicy);
            }
        }
    }
}
