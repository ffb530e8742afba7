package io.agentgateway.classification;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Spec 6 rules 1 and 2: which connection watches a webhook payload. */
class WebhookWatchTest {

    private static JsonNode json(String text) {
        return GatewayJson.MAPPER.readTree(text);
    }

    @Test
    void theCodeHostWatchesItsRepositoriesAndItsOrganizationWhateverTheCase() {
        ToolConnectionConfig repos = new ToolConnectionConfig(List.of("acme/api"), null, null, null);
        ToolConnectionConfig org = new ToolConnectionConfig(List.of(), "Acme", null, null);
        JsonNode push = json("{\"repository\":{\"full_name\":\"ACME/Api\"},\"organization\":{\"login\":\"acme\"}}");
        JsonNode elsewhere = json("{\"repository\":{\"full_name\":\"other/api\"},\"organization\":{\"login\":\"other\"}}");

        assertThat(WebhookWatch.watches(Tool.CODE_HOST, repos, push)).isTrue();
        assertThat(WebhookWatch.watches(Tool.CODE_HOST, org, push)).isTrue();
        assertThat(WebhookWatch.watches(Tool.CODE_HOST, repos, elsewhere)).isFalse();
        assertThat(WebhookWatch.watches(Tool.CODE_HOST, org, elsewhere)).isFalse();
        assertThat(WebhookWatch.watches(Tool.CODE_HOST, ToolConnectionConfig.none(), push)).isFalse();
    }

    @Test
    void theIssueTrackerWatchesItsOrganizationNarrowedByItsTeamOrItsTeamAlone() {
        JsonNode issue = json("{\"organizationId\":\"org-1\",\"data\":{\"teamId\":\"team-1\"}}");
        assertThat(WebhookWatch.watches(Tool.ISSUE_TRACKER, new ToolConnectionConfig(List.of(), null, "org-1", null), issue)).isTrue();
        assertThat(WebhookWatch.watches(Tool.ISSUE_TRACKER, new ToolConnectionConfig(List.of(), null, "org-1", "team-1"), issue)).isTrue();
        assertThat(WebhookWatch.watches(Tool.ISSUE_TRACKER, new ToolConnectionConfig(List.of(), null, "org-1", "team-2"), issue)).isFalse();
        assertThat(WebhookWatch.watches(Tool.ISSUE_TRACKER, new ToolConnectionConfig(List.of(), null, null, "team-1"), issue)).isTrue();
        assertThat(WebhookWatch.watches(Tool.ISSUE_TRACKER, new ToolConnectionConfig(List.of(), null, "org-2", null), issue)).isFalse();
        assertThat(WebhookWatch.watches(Tool.ISSUE_TRACKER, ToolConnectionConfig.none(), issue)).isFalse();
    }

    @Test
    void otherToolsAndOtherShapesWatchNothing() {
        JsonNode push = json("{\"repository\":{\"full_name\":\"acme/api\"}}");
        assertThat(WebhookWatch.watches(Tool.MCP, new ToolConnectionConfig(List.of("acme/api"), null, null, null), push)).isFalse();
        assertThat(WebhookWatch.watches(Tool.CODE_HOST, new ToolConnectionConfig(List.of("acme/api"), null, null, null),
                json("[1]"))).isFalse();
        assertThat(WebhookWatch.watches(Tool.CODE_HOST, null, push)).isFalse();
    }
}
