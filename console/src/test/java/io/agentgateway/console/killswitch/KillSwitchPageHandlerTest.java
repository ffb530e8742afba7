package io.agentgateway.console.killswitch;

import static io.agentgateway.console.web.ConsolePageClient.WORKSPACE;
import static io.agentgateway.console.web.ConsolePageClient.form;
import static io.agentgateway.console.web.ConsolePageClient.html;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.actiongate.connection.ReadModelProgress;
import io.agentgateway.adminapi.killswitch.KillSwitch;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.console.ConsoleConfiguration;
import io.agentgateway.console.web.ConsolePageClient;
import io.agentgateway.httpedge.auth.OidcIssuer;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Role;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;
import reactor.core.publisher.Mono;

/** The kill-switch page ({@link KillSwitchPageHandler}) over a stubbed {@link KillSwitch} and the console's stubbed state read. */
class KillSwitchPageHandlerTest {
    private static final String PAGE = "/workspaces/" + WORKSPACE + "/kill-switch";

    private final ConsolePageClient console = new ConsolePageClient();
    private final KillSwitchState states = mock(KillSwitchState.class);
    private final KillSwitch killSwitch = mock(KillSwitch.class);
    private final OidcIssuer oidc = mock(OidcIssuer.class);
    private final ReadModelProgress progress = mock(ReadModelProgress.class);
    private final WebTestClient browser = console.bind(c -> ConsoleConfiguration.killSwitch(new KillSwitchPageHandler(c.requests(),
            c.pages(), states, killSwitch, c.sessions(), oidc, progress)));

    KillSwitchPageHandlerTest() {
        when(states.of(WORKSPACE)).thenReturn(Optional.of(new KillSwitchState.State(true, List.of(), new KillSwitchState.Change(
                "enable", null, "owner-1", Instant.parse("2030-01-01T00:00:00Z"), "incident 42"), List.of())));
        when(progress.awaitWorkspaceVersion(eq(WORKSPACE), any())).thenReturn(Mono.empty());
    }

    @Test
    void theStateSaysWhoTurnedItOnAndWhy() {
        console.signedIn("owner-1", Role.OWNER);
        when(console.sessions().recentlyAuthenticated(any())).thenReturn(true);

        Document page = html(browser.get().uri(PAGE).exchange().expectStatus().isOk().expectBody(String.class).returnResult());

        assertThat(page.select("#switch-state").text()).isNotEmpty();
        assertThat(page.select("main").text()).contains("owner-1", "incident 42");
    }

    @Test
    void aChangeIsAppliedByTheStreamBeforeThePageSaysSo() {
        console.signedIn("owner-1", Role.OWNER);
        when(console.sessions().recentlyAuthenticated(any())).thenReturn(true);
        when(killSwitch.apply(any(), eq(WORKSPACE), eq(KillSwitchAction.DISABLE), isNull(), eq("resolved"), anyString()))
                .thenReturn(Mono.just(new Applied(21L)));

        browser.post().uri(PAGE).body(BodyInserters.fromFormData(form("action", "disable", "reason", "resolved"))).exchange()
                .expectStatus().isSeeOther().expectHeader().location(PAGE + "?applied=disable");
        verify(progress).awaitWorkspaceVersion(WORKSPACE, 21L);
    }

    @Test
    void theStreamsRefusalIsThePagesError() {
        console.signedIn("admin-1", Role.ADMIN);
        when(console.sessions().recentlyAuthenticated(any())).thenReturn(true);
        when(killSwitch.apply(any(), eq(WORKSPACE), eq(KillSwitchAction.ENABLE), isNull(), eq("drill"), anyString()))
                .thenReturn(Mono.error(ApiException.forbidden("admin-1 is no longer admin of the workspace")));

        browser.post().uri(PAGE).body(BodyInserters.fromFormData(form("action", "enable", "reason", "drill"))).exchange()
                .expectStatus().isForbidden()
                .expectBody(String.class).consumeWith(r -> assertThat(html(r).select("main").text())
                        .contains("admin-1 is no longer admin of the workspace"));
    }

    @Test
    void anOldSignInMustBeRenewedAndAReasonGivenBeforeAnything() {
        console.signedIn("owner-1", Role.OWNER);
        when(console.sessions().recentlyAuthenticated(any())).thenReturn(false);
        browser.post().uri(PAGE).body(BodyInserters.fromFormData(form("action", "enable", "reason", "drill"))).exchange()
                .expectStatus().isUnauthorized();

        when(console.sessions().recentlyAuthenticated(any())).thenReturn(true);
        browser.post().uri(PAGE).body(BodyInserters.fromFormData(form("action", "enable", "reason", ""))).exchange()
                .expectStatus().isBadRequest();
        verify(killSwitch, never()).apply(any(), any(), any(), any(), any(), any());
    }
}
