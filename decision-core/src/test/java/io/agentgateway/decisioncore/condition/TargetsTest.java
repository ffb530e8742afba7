package io.agentgateway.decisioncore.condition;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.condition.TargetFacts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The gateway's reading of {@code target}: the evasions all read as the path or branch they resolve to. */
class TargetsTest {

    @ParameterizedTest
    @ValueSource(strings = {".github/workflows/x.yml", ".github/./workflows/x.yml", ".github//workflows/x.yml",
            "/.github/workflows/x.yml", "%2egithub/workflows/x.yml", "%2Egithub%2Fworkflows/x.yml", ".GITHUB/Workflows/X.YML",
            "docs/../.github/workflows/x.yml", "../../.github/workflows/x.yml", ".github\\workflows\\x.yml",
            " .github/workflows/x.yml", ".github/workflows/./x.yml/"})
    void every_spelling_of_a_workflow_file_reads_as_it(String path) {
        assertThat(Targets.normalizePath(path)).isEqualTo(".github/workflows/x.yml");
    }

    @Test
    void a_percent_sign_not_followed_by_hex_stays_and_decoding_happens_once() {
        assertThat(Targets.normalizePath("a%zz/b%2")).isEqualTo("a%zz/b%2");
        assertThat(Targets.normalizePath("%252egithub/workflows")).isEqualTo("%2egithub/workflows");
    }

    @ParameterizedTest
    @ValueSource(strings = {"main", "refs/heads/main", "REFS/HEADS/Main", "refs/heads/refs/heads/main", " main "})
    void every_spelling_of_a_branch_reads_as_it(String branch) {
        assertThat(Targets.normalizeBranch(branch)).isEqualTo("main");
    }

    private static Map<String, Object> target(Tool tool, ActionSource source, String resourceId, String args, TargetFacts given) {
        return Targets.of(new ConditionInput(tool, "x", RiskLevel.LOW, source, null, null, null, resourceId,
                new ActionFacts(args == null ? null : GatewayJson.MAPPER.readTree(args), null, null, given, null, null, null, null),
                null));
    }

    @Test
    void an_evaluate_action_payload_names_its_target_by_the_documented_keys() {
        assertThat(target(Tool.CODE_HOST, ActionSource.EVALUATE, "Acme/API#12",
                "{\"base\":{\"ref\":\"refs/heads/Main\"},\"branch\":\"dev\",\"path\":\"./x\",\"labels\":[\"Ready\",{\"name\":\"Prod\"}]}", null))
                .containsEntry("owner", "acme").containsEntry("repo", "api").containsEntry("repository", "acme/api")
                .containsEntry("branch", "main").containsEntry("path", "x").containsEntry("labels", List.of("ready", "prod"));
        assertThat(target(Tool.ISSUE_TRACKER, ActionSource.EVALUATE, null, "{\"teamId\":\"ENG\",\"organization\":\"Acme\"}", null))
                .containsOnly(Map.entry("team", "eng"), Map.entry("organization", "acme"));
    }

    @Test
    void a_webhook_payload_names_its_target_by_the_senders_shape() {
        assertThat(target(Tool.CODE_HOST, ActionSource.WEBHOOK, "acme/api",
                "{\"ref\":\"refs/heads/feature\",\"repository\":{\"name\":\"API\",\"owner\":{\"login\":\"Acme\"}},"
                        + "\"pull_request\":{\"base\":{\"ref\":\"main\"},\"labels\":[{\"name\":\"deploy\"}]}}", null))
                .containsEntry("owner", "acme").containsEntry("repo", "api").containsEntry("branch", "main")
                .containsEntry("labels", List.of("deploy"));
        assertThat(target(Tool.ISSUE_TRACKER, ActionSource.WEBHOOK, null,
                "{\"organizationId\":\"org-1\",\"data\":{\"team\":{\"key\":\"ENG\"},\"labels\":[{\"name\":\"Keep\"}]}}", null))
                .containsEntry("team", "eng").containsEntry("organization", "org-1").containsEntry("labels", List.of("keep"));
    }

    @Test
    void the_proxy_and_mcp_gate_give_facts_and_arguments_of_other_shapes_are_never_read_as_a_target() {
        assertThat(target(Tool.CODE_HOST, ActionSource.PROXY, null, "{\"path\":\"not/the/target\",\"branch\":\"dev\"}",
                new TargetFacts("acme", "api", null, ".github/workflows/x.yml", null, null, null)))
                .containsOnly(Map.entry("owner", "acme"), Map.entry("repo", "api"), Map.entry("path", ".github/workflows/x.yml"),
                        Map.entry("repository", "acme/api"));
        assertThat(target(Tool.MCP, ActionSource.MCP, null, "{\"path\":\".github/workflows/x.yml\"}", null)).isEmpty();
    }
}
