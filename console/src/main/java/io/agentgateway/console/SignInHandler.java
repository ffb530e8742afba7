package io.agentgateway.console;

import io.agentgateway.console.session.ConsoleSession;
import io.agentgateway.console.session.ConsoleSessions;
import io.agentgateway.console.session.Secrets;
import com.nimbusds.jwt.JWTClaimsSet;
import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.ConsolePages;
import io.agentgateway.console.web.ConsolePaths;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.SessionCookies;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.auth.JwtVerifier;
import io.agentgateway.httpedge.auth.OidcIssuer;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import java.net.URI;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Signing in and out. With an OpenID provider ({@code gateway.auth.oidc.*}): the authorization code flow with PKCE
 * (S256), a state bound to this browser by a cookie, a nonce checked in the ID token, which is verified like every
 * provider token ({@link JwtVerifier}: signature by the provider's JWKS, {@code iss}, {@code aud}, {@code exp}) and
 * must name this client. Without one: the one-time links the embedded default prints ({@link SignInLinks}).
 * A re-authentication (the kill switch asks for one) is the same flow with {@code prompt=login} and
 * {@code max_age=0}; it renews the proof of identity of the session it started from, and only for the same user.
 */
@Component
class SignInHandler {
    private static final Logger log = LoggerFactory.getLogger(SignInHandler.class);
    static final String CALLBACK = "/signin/callback";

    private final OidcIssuer oidc;
    private final JwtVerifier verifier;
    private final SignInFlows flows;
    private final SignInLinks links;
    private final ConsoleSessions sessions;
    private final SessionCookies cookies;
    private final ConsolePages pages;
    private final ConsoleRequests requests;
    private final PublicBaseUrl baseUrl;

    SignInHandler(OidcIssuer oidc, JwtVerifier verifier, SignInFlows flows, SignInLinks links, ConsoleSessions sessions,
                  SessionCookies cookies, ConsolePages pages, ConsoleRequests requests, PublicBaseUrl baseUrl) {
        this.oidc = oidc;
        this.verifier = verifier;
        this.flows = flows;
        this.links = links;
        this.sessions = sessions;
        this.cookies = cookies;
        this.pages = pages;
        this.requests = requests;
        this.baseUrl = baseUrl;
    }

    /** GET /signin: the button to the provider, or how to get a link. */
    Mono<ServerResponse> page(ServerRequest request) {
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("oidc", oidc.configured());
        model.put("next", ConsolePaths.safeReturn(request.queryParam("next").orElse("/")));
        model.put("reason", request.queryParam("ended").isPresent() ? "You are signed out." : null);
        return pages.page("signin", model);
    }

    /** GET /signin/start[?next=...][&reauth=1]: a new flow, then off to the provider. */
    Mono<ServerResponse> start(ServerRequest request) {
        if (!oidc.configured()) {
            return requests.failure(request, new ConsoleException(HttpStatus.NOT_FOUND,
                    "No identity provider is configured: sign in with a one-time link."));
        }
        String next = ConsolePaths.safeReturn(request.queryParam("next").orElse("/"));
        boolean reauth = request.queryParam("reauth").isPresent();
        return requests.session(request).flatMap(current -> Blocking.call(() -> {
            String state = Secrets.random();
            String verifierText = Secrets.random();
            String nonce = Secrets.random();
            String reauthOf = reauth ? current.map(ConsoleSession::idHash).orElse(null) : null;
            flows.start(state, new SignInFlows.Flow(verifierText, nonce, next, reauthOf, Instant.now()));
            UriComponentsBuilder authorize = UriComponentsBuilder.fromUri(oidc.metadata().authorizationEndpoint())
                    .queryParam("response_type", "code")
                    .queryParam("client_id", oidc.properties().clientId())
                    .queryParam("redirect_uri", redirectUri(request))
                    .queryParam("scope", oidc.properties().scopes())
                    .queryParam("state", state)
                    .queryParam("nonce", nonce)
                    .queryParam("code_challenge", Secrets.codeChallenge(verifierText))
                    .queryParam("code_challenge_method", "S256");
            if (reauthOf != null) {
                authorize.queryParam("prompt", "login").queryParam("max_age", "0");
            }
            return new Started(state, authorize.encode().build().toUri());
        })).flatMap(started -> ServerResponse.seeOther(started.location())
                .cookie(cookies.flowCookie(request, started.state())).build())
                .onErrorResume(e -> requests.failure(request, e));
    }

    private record Started(String state, URI location) {}

    /** GET /signin/callback?code&state (or ?error): the provider's answer. */
    Mono<ServerResponse> callback(ServerRequest request) {
        String state = request.queryParam("state").orElse(null);
        String expected = cookies.flow(request);
        if (state == null || !Secrets.same(state, expected)) {
            return requests.failure(request, ConsoleException.badRequest(
                    "This sign-in was not started in this browser, or it was already finished: start again."));
        }
        Optional<String> error = request.queryParam("error");
        String code = request.queryParam("code").orElse(null);
        return Blocking.call(() -> flows.finish(state).orElseThrow(() -> ConsoleException.badRequest(
                        "This sign-in took too long or was already used: start again.")))
                .flatMap(flow -> {
                    if (error.isPresent() || code == null) {
                        // the provider's own words are not shown: they are a parameter anybody can put in a URL
                        return Mono.error(ConsoleException.forbidden("The identity provider did not sign you in."));
                    }
                    return Blocking.call(() -> redeem(request, flow, code));
                })
                .flatMap(done -> {
                    ServerResponse.BodyBuilder builder = ServerResponse.seeOther(URI.create(done.returnTo()))
                            .cookie(cookies.clearFlow(request));
                    if (done.newSessionId() != null) {
                        builder.cookie(cookies.sessionCookie(request, done.newSessionId()));
                    }
                    return builder.build();
                })
                .onErrorResume(e -> requests.failure(request, e));
    }

    private record Done(String newSessionId, String returnTo) {}

    /** The code for tokens at the provider, the ID token checked, then a session (or a renewed one). Blocking. */
    private Done redeem(ServerRequest request, SignInFlows.Flow flow, String code) {
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("grant_type", "authorization_code");
        form.add("code", code);
        form.add("redirect_uri", redirectUri(request));
        form.add("code_verifier", flow.codeVerifier());
        OidcIssuer.TokenResponse answer = oidc.postToken(form);
        if (!answer.status().is2xxSuccessful() || answer.body().isEmpty()) {
            log.info("console sign-in: the token endpoint refused the code (HTTP {})", answer.status().value());
            throw ConsoleException.forbidden("The identity provider did not sign you in.");
        }
        JsonNode idToken = answer.body().get().get("id_token");
        if (idToken == null || !idToken.isString()) {
            throw ConsoleException.forbidden("The identity provider answered without an ID token.");
        }
        JWTClaimsSet claims = verifier.providerClaims(idToken.asString())
                .filter(c -> c.getAudience().contains(oidc.properties().clientId()))
                .filter(c -> flow.nonce().equals(claimText(c, "nonce")))
                .filter(c -> claimText(c, "azp") == null || oidc.properties().clientId().equals(claimText(c, "azp")))
                .orElseThrow(() -> ConsoleException.forbidden("The identity provider's ID token did not check out."));
        AuthenticatedUser user = JwtVerifier.userOf(claims, oidc.properties().userClaim())
                .orElseThrow(() -> ConsoleException.forbidden("The identity provider did not say who you are"
                        + (oidc.properties().userClaim().equals("email") ? " (a verified email is needed)." : ".")));
        if (flow.reauthOf() != null) {
            Date authTime = dateClaim(claims, "auth_time");
            if (authTime != null && authTime.toInstant().isBefore(flow.createdAt().minusSeconds(60))) {
                throw ConsoleException.forbidden("The identity provider did not ask for your sign-in again.");
            }
            ConsoleSession current = requests.session(request).block().orElse(null);
            if (current == null || !current.idHash().equals(flow.reauthOf()) || !current.userId().equals(user.userId())) {
                throw ConsoleException.forbidden("You confirmed a different account than the one signed in here.");
            }
            sessions.reauthenticated(current.idHash());
            return new Done(null, flow.returnTo());
        }
        String id = sessions.create(user.userId(), user.email(), "oidc");
        log.info("console: {} signed in through the identity provider", user.userId());
        return new Done(id, flow.returnTo());
    }

    private static String claimText(JWTClaimsSet claims, String name) {
        Object value = claims.getClaim(name);
        return value instanceof String text ? text : null;
    }

    private static Date dateClaim(JWTClaimsSet claims, String name) {
        try {
            return claims.getDateClaim(name);
        } catch (java.text.ParseException e) {
            return null;
        }
    }

    /** GET /signin/link?token=...: a one-time link spent, a session started. */
    Mono<ServerResponse> link(ServerRequest request) {
        String token = request.queryParam("token").orElse(null);
        return Blocking.call(() -> links.redeem(token).map(user -> sessions.create(user.userId(), user.email(), "link"))
                        .orElseThrow(() -> ConsoleException.badRequest(
                                "This sign-in link was already used, has expired or is not one: ask for a new one.")))
                .flatMap(id -> ServerResponse.seeOther(URI.create("/")).cookie(cookies.sessionCookie(request, id)).build())
                .onErrorResume(e -> requests.failure(request, e));
    }

    /** POST /signout (CSRF checked): the session ends on every replica, the cookie goes. */
    Mono<ServerResponse> signOut(ServerRequest request) {
        return requests.submission(request)
                .flatMap(submitted -> Blocking.call(() -> {
                    sessions.end(submitted.reader().session().idHash());
                    return true;
                }))
                .flatMap(ended -> ServerResponse.seeOther(URI.create(ConsolePaths.SIGN_IN + "?ended=1"))
                        .cookie(cookies.clearSession(request)).build())
                .onErrorResume(e -> requests.failure(request, e));
    }

    private String redirectUri(ServerRequest request) {
        return baseUrl.of(request) + CALLBACK;
    }

}
