package io.agentgateway.toolproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.actiongate.callview.ConditionArguments;
import io.agentgateway.actiongate.callview.ConditionInputProperties;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.condition.ConditionInputs;
import io.agentgateway.schemas.command.condition.TargetFacts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;

/** What the proxy puts in a command for policy conditions, read from exactly what it classifies and forwards. */
class ProxyConditionFactsTest {
    private final ConditionArguments arguments = new ConditionArguments(new ConditionInputProperties(200, Duration.ofSeconds(2)));

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aContentsWriteNamesItsRepositoryFilePathAndBranchAndItsRequest() {
        UpstreamPath path = UpstreamPath.parse("/repos/Acme/API/contents/.GITHUB/workflows%2Fci.yml", "ref=dev&note=a%20b&ref=main");
        ConditionInputs inputs = ProxyConditionFacts.inputs(arguments, Tool.CODE_HOST, HttpMethod.PUT, path,
                utf8("{\"message\":\"ci\",\"branch\":\"refs/heads/main\",\"token\":\"ghp_abcdefghijklmnopqrstuvwx\"}"), false,
                ConditionLookups.Found.NOTHING);

        assertThat(inputs.target()).isEqualTo(new TargetFacts("Acme", "API", "refs/heads/main", ".GITHUB/workflows/ci.yml",
                null, null, null));
        assertThat(inputs.request().method()).isEqualTo("PUT");
        assertThat(inputs.request().path()).containsExactly("repos", "Acme", "API", "contents", ".GITHUB", "workflows", "ci.yml");
        assertThat(inputs.request().query()).containsEntry("ref", List.of("dev", "main")).containsEntry("note", List.of("a b"));
        assertThat(inputs.arguments().get("token").asString()).as("credentials never enter the log in clear").isEqualTo("[redacted]");
        assertThat(inputs.arguments().get("branch").asString()).isEqualTo("refs/heads/main");
        assertThat(inputs.unresolved()).isNull();
    }

    @Test
    void aLookedUpBaseBranchIsAFactAndOneThatFailedIsNamedUnresolved() {
        UpstreamPath merge = UpstreamPath.parse("/repos/acme/api/pulls/7/merge", null);
        ConditionInputs found = ProxyConditionFacts.inputs(arguments, Tool.CODE_HOST, HttpMethod.PUT, merge, utf8("{}"), false,
                new ConditionLookups.Found(new TargetFacts(null, null, "main", null, null, null, List.of("ready")), List.of()));
        assertThat(found.target()).isEqualTo(new TargetFacts("acme", "api", "main", null, null, null, List.of("ready")));
        ConditionInputs failed = ProxyConditionFacts.inputs(arguments, Tool.CODE_HOST, HttpMethod.PUT, merge, new byte[0], false,
                new ConditionLookups.Found(null, List.of("target.branch", "target.labels")));
        assertThat(failed.target().branch()).isNull();
        assertThat(failed.unresolved()).containsExactly("target.branch", "target.labels");
        assertThat(failed.arguments()).isNull();
    }

    @Test
    void aGraphQlRequestsArgumentsAreItsVariablesAndItsOperationIsNamed() {
        byte[] body = utf8("{\"query\":\"mutation IssueDelete($id: String!) { issueDelete(id: $id) { success } }\","
                + "\"variables\":{\"id\":\"ISS-1\"}}");
        ConditionInputs inputs = ProxyConditionFacts.inputs(arguments, Tool.ISSUE_TRACKER, HttpMethod.POST,
                UpstreamPath.parse("/graphql", null), body, true, ConditionLookups.Found.NOTHING);
        assertThat(inputs.arguments().get("id").asString()).isEqualTo("ISS-1");
        assertThat(inputs.request().operationName()).isEqualTo("IssueDelete");
        assertThat(inputs.request().mutationFields()).containsExactly("issueDelete");
    }

    @Test
    void argumentsOverTheLimitAreLeftOutWithTheirSizeNeverCut() {
        String padded = "{\"amount\":5,\"memo\":\"" + "x".repeat(300) + "\"}";
        ConditionInputs inputs = ProxyConditionFacts.inputs(arguments, Tool.CHAT, HttpMethod.POST,
                UpstreamPath.parse("/api/chat.postMessage", null), utf8(padded), false, ConditionLookups.Found.NOTHING);
        assertThat(inputs.arguments()).isNull();
        assertThat(inputs.argumentsBytes()).isEqualTo(padded.length());
        assertThat(inputs.target()).isNull();
    }
}
