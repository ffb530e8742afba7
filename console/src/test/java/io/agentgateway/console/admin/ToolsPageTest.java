package io.agentgateway.console.admin;

import static io.agentgateway.console.web.ConsolePageClient.BASE_URL;
import static io.agentgateway.console.web.ConsolePageClient.WORKSPACE;
import static io.agentgateway.console.web.ConsolePageClient.form;
import static io.agentgateway.console.web.ConsolePageClient.html;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.oauth.OAuthFlows;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.adminapi.tools.ToolConnections;
import io.agentgateway.adminapi.tools.ToolSettingsView;
import io.agentgateway.console.ConsoleConfiguration;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.WebhookSetup;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Tool;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseCookie;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** The tools page ({@link ToolsPage}) over stubbed {@link ToolConnections} and {@link OAuthFlows}. */
class ToolsPageTest {
    private static final String PAGE = "/workspaces/" + WORKSPACE + "/tools";

    private final AdminPageTests pages = new AdminPageTests();
    private final ToolConnections tools = mock(ToolConnections.class);
    private final OAuthFlows oauth = mock(OAuthFlows.class);
    private final WebTestClient browser = pages.console.bind(c -> ConsoleConfiguration.tools(new ToolsPage(pages.admin, tools, oauth)));

    ToolsPageTest() {
        when(tools.list(WORKSPACE, BASE_URL)).thenReturn(Mono.just(Arrays.stream(Tool.values()).map(ToolsPageTest::notConnected).toList()));
    }

    @Test
    void everyToolHasItsCardWithWhatToEnterUpstreamNeverASecret() {
        pages.console.signedIn("owner-1", Role.OWNER);

        Document page = html(browser.get().uri(PAGE).exchange().expectStatus().isOk().expectBody(String.class).returnResult());

        assertThat(page.select("[data-tool]")).hasSize(Tool.values().length);
        assertThat(page.select("#token-code_host").text()).isEqualTo("not set");
        assertThat(page.select("#payload-url-code_host").text()).startsWith(BASE_URL);
        assertThat(page.select("#connect-code_host")).hasSize(1);
    }

    @Test
    void aRefusalOfTheStreamIsShownAtTheCardsInputWithWhatWasTyped() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(tools.put(any(), eq(WORKSPACE), eq(Tool.CODE_HOST), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(ApiException.badField("config.repos", "config.repos entries must be owner/repo")));

        Document page = html(browser.post().uri(PAGE + "/code_host").body(BodyInserters.fromFormData(form("repos", "not a repo")))
                .exchange().expectStatus().isBadRequest().expectBody(String.class).returnResult());

        assertThat(page.select("#code_host-repos-error").text()).isEqualTo("config.repos entries must be owner/repo");
        assertThat(page.select("#code_host-repos").text()).isEqualTo("not a repo");
    }

    @Test
    void aSavedCardGoesBackToItOnceApplied() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(tools.put(any(), eq(WORKSPACE), eq(Tool.CODE_HOST), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.just(new Applied(5L)));

        browser.post().uri(PAGE + "/code_host").body(BodyInserters.fromFormData(form("repos", "acme/app"))).exchange()
                .expectStatus().isSeeOther().expectHeader().location(PAGE + "?saved=code_host#tool-code_host");
    }

    @Test
    void connectStartsTheFlowForThisBrowserButNotFromAnotherSite() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(oauth.start(any(), eq(WORKSPACE), eq(Tool.CODE_HOST), eq(BASE_URL), eq(true))).thenReturn(Mono.just(new OAuthFlows.Started(
                URI.create("https://code.example/authorize?state=s"), ResponseCookie.from("agw_oauth_code_host", "v").build())));

        browser.get().uri(PAGE + "/code_host/connect").header("Sec-Fetch-Site", "same-origin").exchange()
                .expectStatus().isFound()
                .expectHeader().location("https://code.example/authorize?state=s")
                .expectHeader().valueEquals("Cache-Control", "no-store");

        browser.get().uri(PAGE + "/issue_tracker/connect").header("Sec-Fetch-Site", "cross-site").exchange()
                .expectStatus().isForbidden();
        verify(oauth, never()).start(any(), any(), eq(Tool.ISSUE_TRACKER), any(), eq(true));
    }

    private static ToolSettingsView notConnected(Tool tool) {
        return new ToolSettingsView(tool.wire(), false, false, new ToolSettingsView.ConfigView(List.of(), null, null, null, List.of()),
                false, false, null, null, null, null, WebhookSetup.of(tool, BASE_URL).orElse(null), null, null, null);
    }
}
