package io.agentgateway.adminapi.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Tool;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

/** The signed state on its own: what it binds, and each way a state is refused. */
class OAuthStateTokensTest {
    private static final OAuthTool CODE_HOST = OAuthTool.of(Tool.CODE_HOST).orElseThrow();
    private static final OAuthTool ISSUE_TRACKER = OAuthTool.of(Tool.ISSUE_TRACKER).orElseThrow();
    private static final OAuthClientProperties APP =
            new OAuthClientProperties("https://up.example/authorize?x=1", "https://up.example/token", "cid", "secret", "read,write");

    private static String randomKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    private static OAuthStateTokens tokens(String key) {
        return new OAuthStateTokens(new OAuthProperties(key, Duration.ofMinutes(10), Duration.ofSeconds(10), APP, APP));
    }

    private static OAuthState state(Instant expiresAt) {
        return new OAuthState(UUID.randomUUID(), ISSUE_TRACKER, "user-1", "u@example.com",
                UUID.randomUUID().toString(), "https://gw.example/functions/v1/issue-tracker-oauth-callback", expiresAt);
    }

    @Test
    void aSignedStateVerifiesToWhatItBinds() {
        OAuthStateTokens tokens = tokens(randomKey());
        OAuthState state = state(Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.SECONDS));
        assertThat(tokens.verify(tokens.sign(state))).isEqualTo(state);
    }

    @Test
    void aStateStartedFromTheConsoleSaysSoAndAnAdminApiStateDoesNot() {
        OAuthStateTokens tokens = tokens(randomKey());
        Instant expiry = Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.SECONDS);
        OAuthState console = new OAuthState(UUID.randomUUID(), CODE_HOST, "user-1", null, UUID.randomUUID().toString(),
                "https://gw.example/functions/v1/code-host-oauth-callback", expiry, "ab".repeat(32), true);
        assertThat(tokens.verify(tokens.sign(console)).fromConsole()).isTrue();
        assertThat(tokens.verify(tokens.sign(state(expiry))).fromConsole()).isFalse();
    }

    @Test
    void aFailedCallbackOfAConsoleFlowIsToldByACodeNeverByItsText() {
        assertThat(OAuthFlows.resultOf(new io.agentgateway.httpedge.web.ApiException(org.springframework.http.HttpStatus.CONFLICT,
                OAuthConnector.REUSED))).isEqualTo(OAuthFlows.Result.REUSED);
        assertThat(OAuthFlows.resultOf(io.agentgateway.httpedge.web.ApiException.forbidden(OAuthConnector.NO_LONGER_ADMIN)))
                .isEqualTo(OAuthFlows.Result.NOT_ADMIN);
        assertThat(OAuthFlows.resultOf(io.agentgateway.httpedge.web.ApiException.badRequest(
                "Consent was denied at the code host (access_denied): nothing was stored"))).isEqualTo(OAuthFlows.Result.DENIED);
        assertThat(OAuthFlows.resultOf(new io.agentgateway.httpedge.web.ApiException(org.springframework.http.HttpStatus.BAD_GATEWAY,
                "x"))).isEqualTo(OAuthFlows.Result.EXCHANGE_FAILED);
        assertThat(OAuthFlows.resultOf(new IllegalStateException("a bug"))).isEqualTo(OAuthFlows.Result.FAILED);
        for (OAuthFlows.Result result : OAuthFlows.Result.values()) {
            assertThat(OAuthFlows.Result.parse(result.code())).contains(result);
        }
        assertThat(OAuthFlows.Result.parse("<script>")).isEmpty();
    }

    @Test
    void theStateIsSealedSoItsWorkspaceAndAdminAreNotReadableAndItBindsTheBrowser() {
        OAuthStateTokens tokens = tokens(randomKey());
        String browser = OAuthBrowserBinding.newValue();
        OAuthState state = new OAuthState(UUID.randomUUID(), CODE_HOST, "user-1", "admin@example.com",
                UUID.randomUUID().toString(), "https://gw.example/functions/v1/code-host-oauth-callback",
                Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.SECONDS), OAuthBrowserBinding.binding(browser));
        String sealed = tokens.sign(state);
        assertThat(sealed).startsWith("v1.");
        String bytes = new String(Base64.getUrlDecoder().decode(sealed.substring(3)), java.nio.charset.StandardCharsets.ISO_8859_1);
        for (String text : java.util.List.of(sealed, bytes)) {
            assertThat(text).doesNotContain(state.workspaceId().toString()).doesNotContain("admin@example.com")
                    .doesNotContain("user-1").doesNotContain("eyJ").doesNotContain(browser);
        }
        assertThat(tokens.verify(sealed)).isEqualTo(state);
        // the bare signed JWS (what the state was before it was sealed) is no longer accepted
        assertThatThrownBy(() -> tokens.verify(sealed.substring(3))).hasMessage(OAuthStateTokens.MALFORMED);
        // one bit flipped in the sealed bytes: refused as a signature that does not hold
        byte[] raw = Base64.getUrlDecoder().decode(sealed.substring(3));
        raw[raw.length - 1] ^= 1;
        assertThatThrownBy(() -> tokens.verify("v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(raw)))
                .hasMessage(OAuthStateTokens.BAD_SIGNATURE);

        var cookie = OAuthBrowserBinding.cookie(CODE_HOST, browser, state.redirectUri(), Duration.ofMinutes(10));
        assertThat(cookie.isHttpOnly()).isTrue();
        assertThat(cookie.isSecure()).as("https public URL").isTrue();
        assertThat(cookie.getSameSite()).isEqualTo("Lax");
        assertThat(cookie.getPath()).isEqualTo("/functions/v1/code-host-oauth-callback");
        assertThat(OAuthBrowserBinding.cookie(CODE_HOST, browser, "http://127.0.0.1:8080/functions/v1/x",
                Duration.ofMinutes(10)).isSecure()).as("plain http (local)").isFalse();
    }

    @Test
    void anotherKeyAnExpiryOrGarbageIsRefused() {
        OAuthStateTokens tokens = tokens(randomKey());
        String foreign = tokens(randomKey()).sign(state(Instant.now().plusSeconds(60)));
        assertThatThrownBy(() -> tokens.verify(foreign)).isInstanceOf(ApiException.class)
                .hasMessage(OAuthStateTokens.BAD_SIGNATURE);
        String expired = tokens.sign(state(Instant.now().minusSeconds(1)));
        assertThatThrownBy(() -> tokens.verify(expired)).hasMessage(OAuthStateTokens.EXPIRED);
        assertThatThrownBy(() -> tokens.verify("a.b.c")).hasMessage(OAuthStateTokens.MALFORMED);
        // alg "none" with the state's claims is not a state
        String[] parts = tokens.sign(state(Instant.now().plusSeconds(60))).split("\\.");
        String none = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\",\"typ\":\"oauth-state+jwt\"}".getBytes())
                + "." + parts[1] + ".";
        assertThatThrownBy(() -> tokens.verify(none)).hasMessage(OAuthStateTokens.MALFORMED);
    }

    @Test
    void withoutAKeyTheFlowIsUnavailableAndAShortKeyDoesNotStart() {
        OAuthStateTokens unset = tokens(null);
        assertThatThrownBy(unset::requireConfigured).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE));
        assertThatThrownBy(() -> tokens(Base64.getEncoder().encodeToString(new byte[16])))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theAuthorizeUrlKeepsItsQueryAndEncodesEveryParameter() {
        URI uri = AuthorizeRedirect.of(APP, "https://gw.example/cb?x=1&y=2", "s.t+a/te");
        assertThat(uri.toString()).isEqualTo("https://up.example/authorize?x=1&response_type=code&client_id=cid"
                + "&redirect_uri=https%3A%2F%2Fgw.example%2Fcb%3Fx%3D1%26y%3D2&scope=read%2Cwrite&state=s.t%2Ba%2Fte");
        assertThat(uri.toString()).doesNotContain("secret");
    }

    @Test
    void aTokenUrlTheEgressPolicyRefusesStopsTheStart() {
        OAuthClientProperties metadata = new OAuthClientProperties("https://up.example/authorize",
                "http://169.254.169.254/token", "cid", "csecret", null);
        OAuthProperties properties = new OAuthProperties(randomKey(), Duration.ofMinutes(10), Duration.ofSeconds(10), metadata, APP);
        io.agentgateway.egress.EgressPolicy policy = new io.agentgateway.egress.EgressPolicy(java.util.List.of("0.0.0.0/0"),
                io.agentgateway.egress.OwnListeners.PROCESS, java.util.List.of());
        io.agentgateway.httpedge.secret.ConfiguredSecretBox box = new io.agentgateway.httpedge.secret.ConfiguredSecretBox(
                new io.agentgateway.httpedge.secret.SecretsProperties(null));

        assertThatThrownBy(() -> new OAuthConfiguration(properties, new OAuthStateTokens(properties), box, policy))
                .hasMessage("gateway.oauth.code-host.token-url is refused by the egress policy: "
                        + "169.254.169.254 is a cloud metadata address: never allowed");
        new OAuthConfiguration(new OAuthProperties(randomKey(), Duration.ofMinutes(10), Duration.ofSeconds(10), APP, APP),
                new OAuthStateTokens(properties), box, policy);
    }

    @Test
    void aMisspeltUpstreamUrlStopsTheStart() {
        assertThatThrownBy(() -> new OAuthClientProperties("github.com/login/oauth/authorize", null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("authorize-url");
        assertThatThrownBy(() -> new OAuthClientProperties(null, "ftp://up.example/token", null, null, null))
                .hasMessageContaining("token-url");
        assertThat(new OAuthClientProperties(null, null, "cid", null, null).isConfigured()).isFalse();
        assertThat(APP.toString()).doesNotContain("secret,").contains("clientSecret=redacted");
    }
}
