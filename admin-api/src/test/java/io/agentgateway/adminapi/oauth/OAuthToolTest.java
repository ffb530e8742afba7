package io.agentgateway.adminapi.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Tool;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The tools with OAuth come from their profiles, each with its settings and, unless configured, its defaults. */
class OAuthToolTest {
    private static final OAuthClientProperties UNSET = new OAuthClientProperties(null, null, null, null, null);

    @Test
    void theToolsWithOAuthAreTheCodeHostAndTheIssueTracker() {
        assertThat(OAuthTool.values()).extracting(OAuthTool::tool).containsExactly(Tool.CODE_HOST, Tool.ISSUE_TRACKER);
        assertThat(OAuthTool.of(Tool.CODE_HOST).orElseThrow().callbackPath()).isEqualTo("/functions/v1/code-host-oauth-callback");
        assertThat(OAuthTool.of(Tool.ISSUE_TRACKER).orElseThrow().callbackPath())
                .isEqualTo("/functions/v1/issue-tracker-oauth-callback");
        assertThat(OAuthTool.of(Tool.CODE_HOST).orElseThrow().displayName()).isEqualTo("code host");
        assertThat(OAuthTool.of(Tool.MCP)).isEmpty();
        assertThatThrownBy(() -> OAuthTool.parse("mcp")).isInstanceOf(ApiException.class)
                .hasMessage("OAuth connect is only for the code_host and issue_tracker tools");
    }

    @Test
    void everyToolWithOAuthHasItsSettingsAndTheRealUpstreamsByDefault() {
        OAuthProperties properties = new OAuthProperties(null, Duration.ofMinutes(10), Duration.ofSeconds(10), UNSET, UNSET);
        OAuthClientProperties codeHost = OAuthTool.of(Tool.CODE_HOST).orElseThrow().client(properties);
        assertThat(codeHost.authorizeUrl()).isEqualTo("https://github.com/login/oauth/authorize");
        assertThat(codeHost.tokenUrl()).isEqualTo("https://github.com/login/oauth/access_token");
        assertThat(codeHost.scopes()).isEqualTo("repo read:org");
        assertThat(codeHost.isConfigured()).isFalse();
        OAuthClientProperties issueTracker = OAuthTool.of(Tool.ISSUE_TRACKER).orElseThrow().client(properties);
        assertThat(issueTracker.authorizeUrl()).isEqualTo("https://linear.app/oauth/authorize");
        assertThat(issueTracker.tokenUrl()).isEqualTo("https://api.linear.app/oauth/token");
        assertThat(issueTracker.scopes()).isEqualTo("read,write");
        assertThat(OAuthTool.values()).extracting(OAuthTool::settingsPrefix)
                .containsExactly("gateway.oauth.code-host", "gateway.oauth.issue-tracker");
    }

    @Test
    void whatAnOperatorConfiguredComesFirst() {
        OAuthClientProperties enterprise = new OAuthClientProperties("https://git.example/login/oauth/authorize",
                "https://git.example/login/oauth/access_token", "cid", "csecret", "repo");
        OAuthProperties properties = new OAuthProperties(null, Duration.ofMinutes(10), Duration.ofSeconds(10), enterprise, UNSET);
        OAuthClientProperties app = OAuthTool.of(Tool.CODE_HOST).orElseThrow().client(properties);
        assertThat(app.authorizeUrl()).isEqualTo("https://git.example/login/oauth/authorize");
        assertThat(app.tokenUrl()).isEqualTo("https://git.example/login/oauth/access_token");
        assertThat(app.scopes()).isEqualTo("repo");
        assertThat(app.isConfigured()).isTrue();
    }
}
