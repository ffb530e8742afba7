package io.agentgateway.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.classification.ToolProfile.Credential;
import io.agentgateway.classification.ToolProfile.ErrorDialect;
import io.agentgateway.classification.ToolProfile.KeyForm;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.PlainSecret;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The profiles: one per tool, each consistent, and the lists the error texts are made of. The texts themselves
 * are asserted where they are answered (decision core, admin API, proxy, OAuth, webhooks): they did not change
 * when the profiles were introduced.
 */
class ToolProfilesTest {

    @ParameterizedTest
    @EnumSource(Tool.class)
    void everyToolHasItsOwnProfile(Tool tool) {
        assertThat(ToolProfiles.of(tool)).isNotNull();
        assertThat(ToolProfiles.of(tool).tool()).isEqualTo(tool);
        assertThat(ToolProfiles.of(tool).displayName()).isNotBlank();
    }

    @Test
    void theProfilesAreListedInTheOrderOfTheTools() {
        assertThat(ToolProfiles.all()).extracting(ToolProfile::tool).containsExactly(Tool.values());
    }

    @Test
    void theListsTheErrorTextsNameAreTodays() {
        assertThat(ToolProfiles.wireNames()).isEqualTo("code_host, issue_tracker, chat, docs, internal_api, mcp");
        assertThat(ToolProfiles.listed(ToolProfile::proxied, "and")).isEqualTo("code_host, issue_tracker, chat, docs and internal_api");
        assertThat(ToolProfiles.listed(ToolProfile::sendsWebhooks, "and")).isEqualTo("code_host and issue_tracker");
        assertThat(ToolProfiles.listed(ToolProfile::sendsWebhooks, "or")).isEqualTo("code_host or issue_tracker");
        assertThat(ToolProfiles.listed(ToolProfile::connectsByOAuth, "and")).isEqualTo("code_host and issue_tracker");
        assertThat(ToolProfiles.listed(ToolProfile::classifiedByConnectionRules, "and")).isEqualTo("chat, docs and internal_api");
        assertThat(ToolProfiles.listed(profile -> profile.door() == ToolProfile.Door.MCP_GATE, "or")).isEqualTo("mcp");
        assertThat(ToolProfiles.listed(profile -> false, "and")).isEmpty();
    }

    @Test
    void theServerClassifiesTheRiskOfTheToolsWithFixedTablesOnly() {
        List<Tool> serverClassified = ToolProfiles.where(profile -> profile.riskTable().isPresent()).stream()
                .map(ToolProfile::tool).toList();
        assertThat(serverClassified).containsExactly(Tool.CODE_HOST, Tool.ISSUE_TRACKER);
        assertThat(ToolProfiles.where(profile -> !profile.proxied()).stream().map(ToolProfile::tool)).containsExactly(Tool.MCP);
    }

    @Test
    void theCodeHostGetsItsTokenSchemeAndHeadersTheOthersBearer() {
        PlainSecret token = PlainSecret.of("t0k");
        Credential codeHost = ToolProfiles.of(Tool.CODE_HOST).proxy().orElseThrow().credential();
        assertThat(codeHost.headers(token)).containsExactly(Map.entry("Authorization", "token t0k"),
                Map.entry("User-Agent", "service/1.0"), Map.entry("Accept", "application/vnd.github.v3+json"));
        assertThat(codeHost.headers(null)).containsOnlyKeys("User-Agent", "Accept");
        assertThat(codeHost.tokenRequired()).isTrue();
        for (Tool tool : new Tool[] {Tool.ISSUE_TRACKER, Tool.CHAT, Tool.DOCS, Tool.INTERNAL_API}) {
            Credential credential = ToolProfiles.of(tool).proxy().orElseThrow().credential();
            assertThat(credential.headers(token)).as(tool.wire()).containsExactly(Map.entry("Authorization", "Bearer t0k"));
            assertThat(credential.headers(null)).as(tool.wire()).isEmpty();
            assertThat(credential.tokenRequired()).as(tool.wire()).isEqualTo(tool == Tool.ISSUE_TRACKER);
        }
    }

    @Test
    void keyFormsAndErrorDialectsFollowEachToolsSdk() {
        assertThat(ToolProfiles.of(Tool.CODE_HOST).proxy().orElseThrow().keyForms()).containsExactly(KeyForm.BEARER, KeyForm.TOKEN);
        assertThat(ToolProfiles.of(Tool.ISSUE_TRACKER).proxy().orElseThrow().keyForms()).containsExactly(KeyForm.BEARER, KeyForm.RAW);
        assertThat(ToolProfiles.of(Tool.CHAT).proxy().orElseThrow().keyForms()).containsExactly(KeyForm.BEARER);
        assertThat(ToolProfiles.where(ToolProfile::proxied).stream()
                .collect(Collectors.toMap(ToolProfile::tool, profile -> profile.proxy().orElseThrow().errorDialect())))
                .containsEntry(Tool.ISSUE_TRACKER, ErrorDialect.GRAPHQL)
                .containsEntry(Tool.CODE_HOST, ErrorDialect.REST)
                .containsEntry(Tool.CHAT, ErrorDialect.REST);
    }

    @Test
    void webhookAndOAuthPathsAreDistinct() {
        List<String> paths = ToolProfiles.all().stream()
                .flatMap(profile -> java.util.stream.Stream.concat(
                        profile.webhooks().map(ToolProfile.Webhooks::path).stream(),
                        profile.oauth().map(ToolProfile.OAuth::callbackPath).stream()))
                .toList();
        assertThat(paths).doesNotHaveDuplicates().allMatch(path -> path.startsWith("/functions/v1/"));
        assertThat(ToolProfiles.where(ToolProfile::connectsByOAuth).stream().map(profile -> profile.oauth().orElseThrow().settingsKey()))
                .doesNotHaveDuplicates();
    }

    @Test
    void eachConnectionFieldBelongsToOneTool() {
        for (ConnectionField field : ConnectionField.values()) {
            assertThat(ToolProfiles.where(profile -> profile.takes(field))).as(field.fieldName()).hasSize(1);
        }
        assertThat(ConnectionField.MCP_TRANSPORT.missing("mcp")).isEqualTo("mcp_transport is required for the mcp tool: sse or http");
        assertThat(ConnectionField.MCP_SERVER_URL.missing("mcp")).isEqualTo("mcp_server_url is required for the mcp tool");
    }

    @Test
    void anInconsistentProfileIsRefusedWhenItIsBuilt() {
        assertThatThrownBy(() -> ToolProfile.of(Tool.CHAT, "chat").graphQl(new IssueTrackerGraphQl()).build())
                .hasMessageContaining("needs its risk table");
        assertThatThrownBy(() -> ToolProfile.of(Tool.CHAT, "chat").keyForms(KeyForm.TOKEN).build())
                .hasMessageContaining("Bearer");
        assertThatThrownBy(() -> ToolProfile.of(Tool.MCP, "mcp").requires(ConnectionField.MCP_SERVER_URL).build())
                .hasMessageContaining("required connection field");
        assertThat(ToolProfile.of(Tool.CHAT, "chat").riskTable(Map.of("read", RiskLevel.LOW))
                .graphQl(new IssueTrackerGraphQl()).build().classifiedByConnectionRules()).isFalse();
    }

    @Test
    void theProfileOfEveryToolIsAValueOfItsOwn() {
        Set<String> names = Arrays.stream(Tool.values()).map(tool -> ToolProfiles.of(tool).displayName()).collect(Collectors.toSet());
        assertThat(names).hasSize(Tool.values().length);
    }
}
