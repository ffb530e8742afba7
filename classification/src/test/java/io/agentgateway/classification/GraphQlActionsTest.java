package io.agentgateway.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The module's own API; the proxy's cases (every table row, fragments, variables) are in ProxyClassificationTest. */
class GraphQlActionsTest {

    @Test
    void queriesAreReadsAndMutationsTakeTheRiskOfTheTable() {
        assertThat(GraphQlActions.classify(Tool.ISSUE_TRACKER, body("{\"query\":\"query { issues { nodes { id } } }\"}")))
                .isEqualTo(new ClassifiedAction("read", RiskLevel.LOW));
        assertThat(GraphQlActions.classify(Tool.ISSUE_TRACKER,
                body("{\"query\":\"mutation IssueDelete { issueDelete(id: \\\"1\\\") { success } }\"}")))
                .isEqualTo(new ClassifiedAction("issue.delete", RiskLevel.HIGH));
        assertThat(GraphQlActions.classify(Tool.CODE_HOST,
                body("{\"query\":\"mutation { mergePullRequest(input: {}) { clientMutationId } }\"}")))
                .isEqualTo(new ClassifiedAction("pull_request.merge", RiskLevel.HIGH));
    }

    @Test
    void aBodyThatIsNoGraphQlRequestIsMalformedWithAMessageForTheCaller() {
        assertThatThrownBy(() -> GraphQlActions.classify(Tool.ISSUE_TRACKER, body("{\"query\":\"mutation {\"}")))
                .isInstanceOf(MalformedCallException.class).hasMessageStartingWith("Malformed GraphQL query: ");
        assertThatThrownBy(() -> GraphQlActions.classify(Tool.ISSUE_TRACKER, null))
                .isInstanceOf(MalformedCallException.class)
                .hasMessage("The GraphQL request body must be a JSON object with a query");
    }

    @Test
    void riskTablesClassifyTheCodeHostAndIssueTrackerWhateverTheCallerSaid() {
        RiskClassifier risks = new RiskClassifier();
        assertThat(risks.classify(Tool.CODE_HOST, "pull_request.merge", RiskLevel.LOW)).get()
                .extracting(ClassifiedRisk::level).isEqualTo(RiskLevel.HIGH);
        assertThat(risks.classify(Tool.ISSUE_TRACKER, "label.remove", null)).get()
                .extracting(ClassifiedRisk::level).isEqualTo(RiskLevel.HIGH);
        assertThat(risks.classify(Tool.CHAT, "message.send", null)).isEmpty();
    }

    private static JsonNode body(String json) {
        return GatewayJson.MAPPER.readTree(json);
    }

    @org.junit.jupiter.api.Test
    void describeNamesTheOperationItsMutationFieldsAndTheirStringIds() {
        GraphQlOperation deleted = GraphQlActions.describe(io.agentgateway.schemas.GatewayJson.MAPPER.readTree(
                "{\"query\":\"mutation IssueDelete($id: String!) { issueDelete(id: $id) { success } other: issueArchive(id: \\\"ISS-9\\\") { success } }\","
                        + "\"variables\":{\"id\":\"ISS-1\"}}"));
        org.assertj.core.api.Assertions.assertThat(deleted.operationName()).isEqualTo("IssueDelete");
        org.assertj.core.api.Assertions.assertThat(deleted.mutation()).isTrue();
        org.assertj.core.api.Assertions.assertThat(deleted.rootFields()).containsExactly("issueDelete", "issueArchive");
        org.assertj.core.api.Assertions.assertThat(deleted.rootFieldIds()).containsEntry("issueDelete", "ISS-1")
                .containsEntry("issueArchive", "ISS-9");
        GraphQlOperation query = GraphQlActions.describe(io.agentgateway.schemas.GatewayJson.MAPPER.readTree(
                "{\"query\":\"query { viewer { id } }\"}"));
        org.assertj.core.api.Assertions.assertThat(query.mutation()).isFalse();
        org.assertj.core.api.Assertions.assertThat(query.operationName()).isNull();
    }
}
