package io.agentgateway.console.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Tool;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

/** The admin pages' forms as the admin API's bodies, and the API's errors back at their inputs. */
class AdminFormsTest {

    @Test
    void aPolicyFormIsTheApisBodyWithEmptyListsLeftOut() {
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("name", " Hold merges ");
        form.add("priority", "10");
        form.add("enabled", "true");
        form.add("decision", "require_approval");
        form.add("tools", "code_host");
        form.add("actions", "pull_request.merge\n\n, pull_request.update ");
        form.add("condition", "target.branch == 'main'");
        var body = PolicyDraft.of(form).body();
        assertThat(body.toString()).isEqualTo("{\"name\":\"Hold merges\",\"priority\":10,\"enabled\":true,\"decision\":\"require_approval\","
                + "\"condition\":\"target.branch == 'main'\",\"match\":{\"tools\":[\"code_host\"],"
                + "\"actions\":[\"pull_request.merge\",\"pull_request.update\"]}}");
        // what is no integer stays text, for the API to say so at the field
        form.set("priority", "ten");
        form.remove("enabled");
        assertThat(PolicyDraft.of(form).body().get("priority").asString()).isEqualTo("ten");
        assertThat(PolicyDraft.of(form).body().get("enabled").asBoolean()).isFalse();
    }

    @Test
    void anApiErrorIsShownAtItsInputAndAnyOtherAsTheForms() {
        var atName = FormErrors.of(ApiException.badField("name", "name must be a non-empty string"), PolicyDraft.INPUTS).orElseThrow();
        assertThat(atName.get("name")).isEqualTo("name must be a non-empty string");
        assertThat(atName.status()).isEqualTo(HttpStatus.BAD_REQUEST);
        var atTools = FormErrors.of(ApiException.badField("match.tools", "match.tools must be an array of: …"), PolicyDraft.INPUTS)
                .orElseThrow();
        assertThat(atTools.has("tools")).isTrue();
        var general = FormErrors.of(new ApiException(HttpStatus.TOO_MANY_REQUESTS, "Workspace limit reached"), Map.of()).orElseThrow();
        assertThat(general.general()).isEqualTo("Workspace limit reached");
        assertThat(general.status()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
        // not about the input: the error page says it
        assertThat(FormErrors.of(new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "Secret storage is not configured"), Map.of()))
                .isEmpty();
        assertThat(FormErrors.of(new IllegalStateException("bug"), Map.of())).isEmpty();
    }

    @Test
    void aConditionsErrorIsShownAtItsLineAndColumn() {
        var problem = FormErrors.conditionProblem("condition: line 2, column 7: Syntax error: mismatched input",
                "agent.id == 'a' &&\nargs. == 1").orElseThrow();
        assertThat(problem.line()).isEqualTo(2);
        assertThat(problem.column()).isEqualTo(7);
        assertThat(problem.sourceLine()).isEqualTo("args. == 1");
        assertThat(problem.caret()).isEqualTo("      ^");
        assertThat(problem.message()).isEqualTo("Syntax error: mismatched input");
        assertThat(FormErrors.conditionProblem("condition must be a non-empty CEL expression, or absent", "")).isEmpty();
    }

    @Test
    void aToolCardSendsOnlyItsToolsFieldsAndATokenOnlyWhenOneIsPasted() {
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("repos", "acme/api\nacme/web");
        form.add("org", "acme");
        form.add("team_id", "not for the code host");
        form.add("base_url", "https://code.example/api/v3");
        form.add("access_token", "");
        assertThat(ToolsPage.body(Tool.CODE_HOST, form).toString()).isEqualTo("{\"config\":{\"repos\":[\"acme/api\",\"acme/web\"],"
                + "\"org\":\"acme\"},\"base_url\":\"https://code.example/api/v3\"}");
        form.set("remove_access_token", "true");
        assertThat(ToolsPage.body(Tool.CODE_HOST, form).at("/config/access_token").isNull()).isTrue();
        form.set("access_token", "ghp_pasted");
        assertThat(ToolsPage.body(Tool.CODE_HOST, form).at("/config/access_token").asString()).isEqualTo("ghp_pasted");
    }

    @Test
    void theSnippetsCarryTheBaseUrlsAndTheKeyAndNoToStringShowsThem() {
        var snippets = ApiKeysPage.Snippets.of("https://gw.example", "agk_secret");
        assertThat(snippets.octokit()).isEqualTo("const octokit = new Octokit({ baseUrl: 'https://gw.example/functions/v1/gateway-proxy/code_host',"
                + " auth: 'agk_secret' });");
        assertThat(snippets.linear()).isEqualTo("const linear = new LinearClient({ apiUrl: 'https://gw.example/functions/v1/gateway-proxy/"
                + "issue_tracker/graphql', apiKey: 'agk_secret' });");
        assertThat(snippets.mcp()).contains("\"url\": \"https://gw.example/functions/v1/mcp-gate/sse\"")
                .contains("\"Authorization\": \"Bearer agk_secret\"").contains("\"transport\": \"sse\"");
        assertThat(snippets.toString()).doesNotContain("agk_secret");
        assertThat(ApiKeysPage.instant("2030-01-02T03:04")).isEqualTo("2030-01-02T03:04:00Z");
        assertThat(ApiKeysPage.instant("soon")).isEqualTo("soon");
    }
}
