package io.agentgateway.console.admin;

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

import io.agentgateway.adminapi.keys.ApiKeyAdmin;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.console.ConsoleConfiguration;
import io.agentgateway.console.web.ConsolePageClient;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** The API keys page ({@link ApiKeysPage}) over a stubbed {@link ApiKeyAdmin}. */
class ApiKeysPageTest {
    private static final String PAGE = "/workspaces/" + WORKSPACE + "/api-keys";

    private final AdminPageTests pages = new AdminPageTests();
    private final ApiKeyAdmin keys = mock(ApiKeyAdmin.class);
    private final WebTestClient browser = pages.console.bind(c -> ConsoleConfiguration.apiKeys(new ApiKeysPage(pages.admin, keys)));

    @Test
    void theKeysAreListedWithoutAnyKey() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(keys.list(WORKSPACE)).thenReturn(Mono.just(List.of(new ApiKeyAdmin.ApiKeyView("k-1", "ci agent", List.of("proxy"),
                null, null, Instant.parse("2030-01-01T00:00:00Z"), "agent-7", null, null))));

        Document page = html(browser.get().uri(PAGE).exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("Cache-Control", "no-store")
                .expectHeader().exists("Content-Security-Policy")
                .expectBody(String.class).returnResult());

        assertThat(page.select("#key-list tr[data-key-id=k-1] th").text()).isEqualTo("ci agent");
        assertThat(page.select("#key-list").text()).contains("proxy", "agent-7");
        assertThat(page.select("#issue-form input[name=_csrf]").val()).isEqualTo(ConsolePageClient.CSRF);
    }

    @Test
    void anIssuedKeyIsShownOnceWithItsSnippets() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(keys.issue(any(), eq(WORKSPACE), any(ObjectNode.class), anyString())).thenReturn(Mono.just(
                new ApiKeyAdmin.IssuedKey("k-2", "agw_the_only_copy", "deploy bot", Set.of(Scope.PROXY), null, null, null)));

        Document page = html(browser.post().uri(PAGE).body(BodyInserters.fromFormData(form("name", "deploy bot", "scopes", "proxy")))
                .exchange()
                .expectStatus().isCreated()
                .expectBody(String.class).returnResult());

        assertThat(page.select("#api-key").text()).isEqualTo("agw_the_only_copy");
        assertThat(page.text()).contains("Octokit");
    }

    @Test
    void theApisRefusalIsShownAtItsInput() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(keys.issue(any(), eq(WORKSPACE), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(ApiException.badField("name", "name must be a non-empty string")));
        when(keys.list(WORKSPACE)).thenReturn(Mono.just(List.of()));

        Document page = html(browser.post().uri(PAGE).body(BodyInserters.fromFormData(form("name", "", "scopes", "proxy")))
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody(String.class).returnResult());

        assertThat(page.select("#key-name-error").text()).isEqualTo("name must be a non-empty string");
        assertThat(page.select("#key-name").attr("aria-invalid")).isEqualTo("true");
    }

    @Test
    void aRevokeGoesBackToTheListOnceApplied() {
        pages.console.signedIn("owner-1", Role.ADMIN);
        UUID keyId = UUID.randomUUID();
        when(keys.revoke(any(), eq(WORKSPACE), eq(keyId), anyString())).thenReturn(Mono.just(new Applied(4L)));

        browser.post().uri(PAGE + "/" + keyId + "/revoke").body(BodyInserters.fromFormData(form())).exchange()
                .expectStatus().isSeeOther()
                .expectHeader().location(PAGE + "?revoked");
        verify(pages.progress).awaitWorkspaceVersion(WORKSPACE, 4L);
    }

    @Test
    void aReviewerSeesWhyNotAndAFormWithoutItsTokenChangesNothing() {
        pages.console.signedIn("reviewer-1", Role.REVIEWER);
        browser.get().uri(PAGE).exchange().expectStatus().isForbidden()
                .expectBody(String.class).consumeWith(result -> assertThat(result.getResponseBody()).contains("Only an admin or owner"));

        pages.console.signedIn("owner-1", Role.OWNER);
        browser.post().uri(PAGE + "/" + UUID.randomUUID() + "/revoke")
                .body(BodyInserters.fromFormData("_csrf", "forged")).exchange()
                .expectStatus().isForbidden();
        verify(keys, never()).revoke(any(), any(), any(), any());
    }

    @Test
    void withoutASessionThePageSendsToSignIn() {
        browser.get().uri(PAGE).exchange()
                .expectStatus().isSeeOther()
                .expectHeader().valueMatches("Location", "/signin\\?next=.*api-keys");
    }
}
