package io.agentgateway.adminapi.oauth;

import static io.agentgateway.adminapi.shared.HandlerTestClient.BASE_URL;
import static io.agentgateway.adminapi.shared.HandlerTestClient.WORKSPACE;
import static io.agentgateway.adminapi.shared.HandlerTestClient.bearer;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.AdminRoutes;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.schemas.Tool;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseCookie;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;

/**
 * The OAuth connect flow's HTTP side: {@link OAuthStartHandler} over a stubbed {@link OAuthFlows}, and
 * {@link OAuthCallbackHandler} with the real state check and browser binding over a stubbed {@link OAuthConnector} (the
 * token endpoint and the log are its). End to end with a real token endpoint: the launcher's {@code OAuthConnectEndToEndTest}.
 */
class OAuthHandlersTest {
    private static final OAuthTool CODE_HOST = OAuthTool.of(Tool.CODE_HOST).orElseThrow();
    private static final String CALLBACK = CODE_HOST.callbackPath();
    private static final OAuthClientProperties APP =
            new OAuthClientProperties("https://up.example/authorize", "https://up.example/token", "cid", "secret", "repo");

    private final OAuthFlows flows = mock(OAuthFlows.class);
    private final OAuthConnector connector = mock(OAuthConnector.class);
    private final OAuthStateTokens states = new OAuthStateTokens(new OAuthProperties(randomKey(), Duration.ofMinutes(10),
            Duration.ofSeconds(10), APP, APP));
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.oauth(new OAuthStartHandler(e.access(), flows, e.baseUrl()),
            new OAuthCallbackHandler(states, connector)));

    @Test
    void aStartIsARedirectToTheAuthorizeUrlWithItsFlowCookieNeverCached() {
        URI authorize = URI.create("https://up.example/authorize?state=s");
        when(flows.start(any(), eq(WORKSPACE), eq(Tool.CODE_HOST), eq(BASE_URL), eq(false))).thenReturn(Mono.just(
                new OAuthFlows.Started(authorize, ResponseCookie.from("agw_oauth_code_host", "v").httpOnly(true).build())));

        http.get().uri("/admin/v1/workspaces/" + WORKSPACE + "/tools/code_host/oauth/start").header("Authorization", bearer("owner-1"))
                .exchange()
                .expectStatus().isFound()
                .expectHeader().location(authorize.toString())
                .expectHeader().valueEquals("Cache-Control", "no-store")
                .expectCookie().httpOnly("agw_oauth_code_host", true)
                .expectBody().jsonPath("$.authorizeUrl").isEqualTo(authorize.toString());
    }

    @Test
    void aToolWithoutOAuthIs400AndANonAdmin403BeforeAnyFlow() {
        http.get().uri("/admin/v1/workspaces/" + WORKSPACE + "/tools/chat/oauth/start").header("Authorization", bearer("owner-1"))
                .exchange().expectStatus().isBadRequest();
        http.get().uri("/admin/v1/workspaces/" + WORKSPACE + "/tools/code_host/oauth/start").header("Authorization", bearer("member-1"))
                .exchange().expectStatus().isForbidden().expectBody().jsonPath("$.error").isEqualTo(ErrorMessages.ADMIN_REQUIRED);
        verify(flows, never()).start(any(), any(), any(), any(), any(Boolean.class));
    }

    @Test
    void aCallbackWithoutItsStateOrFromAnotherBrowserStoresNothing() {
        http.get().uri(CALLBACK + "?code=c").exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.error").isEqualTo("state is required");
        http.get().uri(CALLBACK + "?code=c&state=forged").exchange().expectStatus().isBadRequest();
        http.get().uri(CALLBACK + "?code=c&state=" + states.sign(state("b".repeat(64)))).exchange().expectStatus().isBadRequest();
        verify(connector, never()).connect(any(), any(), any());
    }

    @Test
    void aVerifiedCallbackFromTheBrowserThatStartedConnects() {
        String browser = OAuthBrowserBinding.newValue();
        OAuthState state = state(OAuthBrowserBinding.binding(browser));
        when(connector.connect(eq(state), eq("the-code"), anyString())).thenReturn(Mono.empty());

        http.get().uri(CALLBACK + "?code=the-code&state=" + states.sign(state))
                .cookie(OAuthBrowserBinding.cookieName(CODE_HOST), browser).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.workspaceId").isEqualTo(WORKSPACE.toString()).jsonPath("$.accessTokenSet").isEqualTo(true);
    }

    @Test
    void aConnectorRefusalIsItsError() {
        String browser = OAuthBrowserBinding.newValue();
        OAuthState state = state(OAuthBrowserBinding.binding(browser));
        when(connector.connect(eq(state), anyString(), anyString()))
                .thenReturn(Mono.error(new ApiException(org.springframework.http.HttpStatus.CONFLICT, OAuthConnector.REUSED)));

        http.get().uri(CALLBACK + "?code=c&state=" + states.sign(state)).cookie(OAuthBrowserBinding.cookieName(CODE_HOST), browser)
                .exchange().expectStatus().isEqualTo(409).expectBody().jsonPath("$.error").isEqualTo(OAuthConnector.REUSED);
    }

    private static OAuthState state(String browserBinding) {
        return new OAuthState(WORKSPACE, CODE_HOST, "owner-1", null, UUID.randomUUID().toString(), BASE_URL + CALLBACK,
                Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.SECONDS), browserBinding, false);
    }

    private static String randomKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }
}
