package io.agentgateway.mcpgate;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.RiskLevel;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Spec 4.3's risk table, with names that match several rows (the most severe wins). */
class McpToolRiskTest {

    @ParameterizedTest
    @CsvSource({
        "list_issues, LOW", "read_file, LOW", "getUser, LOW",
        "delete_repository, HIGH", "drop_table, HIGH", "remove_member, HIGH", "destroy_vm, HIGH",
        "create_issue, MEDIUM", "merge_pull_request, MEDIUM", "send_email, MEDIUM", "post_message, MEDIUM",
        "search_code, MEDIUM", "run, MEDIUM",
        "list_deleted, HIGH", "get_or_create_user, MEDIUM", "read_and_remove, HIGH", "update_then_delete, HIGH",
        "LIST_REPOS, LOW", "DeleteRepo, HIGH"
    })
    void riskFromTheToolName(String name, RiskLevel expected) {
        assertThat(McpToolRisk.of(name)).isEqualTo(expected);
    }
}
