package io.agentgateway.toolproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.httpedge.auth.ApiKeyScheme;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Tool;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;

/** What the proxy takes from each tool's profile: the tools it serves, key schemes, dialects, the GraphQL path. */
class ProxyProfilesTest {

    @Test
    void theProxyServesEveryToolButTheMcpGates() {
        assertThat(GatewayProxyHandler.TOOL_MESSAGE)
                .isEqualTo("The proxy serves the tools code_host, issue_tracker, chat, docs and internal_api");
        assertThatThrownBy(() -> ProxyClassifier.proxied(Tool.MCP)).isInstanceOf(IllegalStateException.class);
        assertThat(ProxyErrorDialect.body("/functions/v1/gateway-proxy/mcp/x", HttpStatus.UNAUTHORIZED, "e", "c")).isEmpty();
    }

    @Test
    void eachToolTakesTheKeyFormsOfItsSdk() {
        assertThat(ProxyKeySchemes.of(Tool.CODE_HOST)).containsExactlyInAnyOrder(ApiKeyScheme.BEARER, ApiKeyScheme.TOKEN);
        assertThat(ProxyKeySchemes.of(Tool.ISSUE_TRACKER)).containsExactlyInAnyOrder(ApiKeyScheme.BEARER, ApiKeyScheme.RAW);
        for (Tool tool : new Tool[] {Tool.CHAT, Tool.DOCS, Tool.INTERNAL_API}) {
            assertThat(ProxyKeySchemes.of(tool)).containsExactly(ApiKeyScheme.BEARER);
        }
        for (ToolProfile profile : ToolProfiles.where(ToolProfile::proxied)) {
            assertThat(ProxyDialect.of(profile.tool())).isNotNull();
        }
    }

    @Test
    void aGraphQlApiAloneIsServedAtItsOnePath() {
        assertThatThrownBy(() -> ProxyClassifier.classify(Tool.ISSUE_TRACKER, HttpMethod.POST,
                UpstreamPath.parse("/issues", null), new byte[0], List.of()))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.NOT_FOUND);
                    assertThat(e.getMessage())
                            .isEqualTo("The issue tracker is proxied at POST /functions/v1/gateway-proxy/issue_tracker/graphql only");
                });
        assertThat(ProxyClassifier.isGraphQl(Tool.ISSUE_TRACKER, UpstreamPath.parse("/graphql", null))).isTrue();
        assertThat(ProxyClassifier.isGraphQl(Tool.ISSUE_TRACKER, UpstreamPath.parse("/GraphQL", null))).isFalse();
        assertThat(ProxyClassifier.isGraphQl(Tool.CODE_HOST, UpstreamPath.parse("/GraphQL", null))).isTrue();
        assertThat(ProxyClassifier.isGraphQl(Tool.CHAT, UpstreamPath.parse("/graphql", null))).isFalse();
    }

    @Test
    void theCredentialHeadersAreTheProfiles() {
        assertThat(ToolCredentials.tokenRequired(Tool.CODE_HOST)).isTrue();
        assertThat(ToolCredentials.tokenRequired(Tool.ISSUE_TRACKER)).isTrue();
        assertThat(ToolCredentials.tokenRequired(Tool.CHAT)).isFalse();
        assertThat(ToolCredentials.headers(Tool.CODE_HOST, null)).containsEntry("User-Agent", "service/1.0")
                .containsEntry("Accept", "application/vnd.github.v3+json");
    }
}
