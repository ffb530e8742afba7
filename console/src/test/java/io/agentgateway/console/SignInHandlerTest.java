package io.agentgateway.console;

import static io.agentgateway.console.web.ConsolePageClient.html;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.console.web.ConsolePageClient;
import io.agentgateway.httpedge.auth.JwtProperties;
import io.agentgateway.httpedge.auth.JwtVerifier;
import io.agentgateway.httpedge.auth.OidcIssuer;
import java.util.Optional;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Signing in without an identity provider ({@link SignInHandler}): the page, one-time links (the console's stubbed
 * links and sessions: its tables), and what is refused. The OpenID flow runs against a real provider in the launcher's
 * browser suite.
 */
class SignInHandlerTest {
    private final ConsolePageClient console = new ConsolePageClient();
    private final OidcIssuer oidc = mock(OidcIssuer.class);
    private final SignInLinks links = mock(SignInLinks.class);
    private final WebTestClient browser = console.bind(c -> ConsoleConfiguration.signIn(new SignInHandler(oidc,
            new JwtVerifier(new JwtProperties(null, null, null, null)), mock(SignInFlows.class), links, c.sessions(), c.cookies(),
            c.pages(), c.requests(), c.baseUrl())));

    @Test
    void withoutAProviderThePageSaysHowToGetALink() {
        Document page = html(browser.get().uri("/signin?next=/audit").exchange().expectStatus().isOk().expectBody(String.class).returnResult());
        assertThat(page.select("#signin-button")).isEmpty();
        assertThat(page.text()).contains("gateway.auth.oidc.issuer");
        browser.get().uri("/signin/start").exchange().expectStatus().isNotFound();
    }

    @Test
    void aOneTimeLinkStartsASessionOnce() {
        when(links.redeem("good")).thenReturn(Optional.of(new SignInLinks.LinkUser("owner-1", "owner@example.test")));
        when(links.redeem("spent")).thenReturn(Optional.empty());
        when(console.sessions().create("owner-1", "owner@example.test", "link")).thenReturn("N".repeat(43));

        browser.get().uri("/signin/link?token=good").exchange()
                .expectStatus().isSeeOther()
                .expectHeader().location("/")
                .expectCookie().httpOnly("agw_session", true)
                .expectCookie().sameSite("agw_session", "Lax");
        browser.get().uri("/signin/link?token=spent").exchange().expectStatus().isBadRequest();
        verify(console.sessions()).create("owner-1", "owner@example.test", "link");
    }
}
