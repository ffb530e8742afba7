package io.agentgateway.console.web;

import io.agentgateway.console.session.ConsoleSession;
import io.agentgateway.console.session.ConsoleSessions;
import io.agentgateway.console.session.Secrets;
import io.agentgateway.adminapi.workspaces.Workspaces;
import io.agentgateway.httpedge.auth.OidcIssuer;
import io.agentgateway.gatewayclient.DecisionServiceUnavailableException;
import io.agentgateway.gatewayclient.DecisionTimeoutException;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import io.agentgateway.httpedge.web.ReadModelFailures;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * What every console request goes through: the session from its cookie (none: the sign-in page for a page, 401 for
 * htmx and POSTs), the user's workspaces, and for every state change the CSRF token (form field {@value #CSRF_FIELD}
 * or header {@value #CSRF_HEADER}) plus the browser's own word that the request comes from this site ({@code Origin},
 * {@code Sec-Fetch-Site}). Every failure becomes a page or fragment with a 4xx/5xx status and a sentence, never a 500
 * with a stack trace; only a bug is logged as an error.
 */
@Component
public class ConsoleRequests {
    public static final String CSRF_FIELD = "_csrf";
    public static final String CSRF_HEADER = "X-CSRF-Token";
    private static final Logger log = LoggerFactory.getLogger(ConsoleRequests.class);

    private final ConsoleSessions sessions;
    private final Memberships memberships;
    private final SessionCookies cookies;
    private final ConsolePages pages;
    private final PublicBaseUrl baseUrl;
    private final Workspaces workspaces;

    ConsoleRequests(ConsoleSessions sessions, Memberships memberships, SessionCookies cookies, ConsolePages pages,
                    PublicBaseUrl baseUrl, Workspaces workspaces) {
        this.workspaces = workspaces;
        this.sessions = sessions;
        this.memberships = memberships;
        this.cookies = cookies;
        this.pages = pages;
        this.baseUrl = baseUrl;
    }

    /** A signed-in request and the form it posted (after the CSRF and origin checks). */
    public record Submission(Reader reader, MultiValueMap<String, String> form) {
        public String field(String name) {
            String value = form.getFirst(name);
            return value == null ? null : value;
        }
    }

    /** The session of the request, if any (no error). */
    public Mono<Optional<ConsoleSession>> session(ServerRequest request) {
        String id = cookies.session(request);
        if (id == null) {
            return Mono.just(Optional.empty());
        }
        return Blocking.call(() -> sessions.find(id));
    }

    /** The signed-in reader, or {@link ConsoleException.SignInRequired}. */
    public Mono<Reader> reader(ServerRequest request) {
        return session(request).flatMap(found -> found
                .map(session -> Blocking.call(() -> memberships.of(session.userId()))
                        .zipWith(workspaces.isOperator(session.user()), (list, operator) -> new Reader(session, list, operator)))
                .orElseGet(() -> Mono.error(new ConsoleException.SignInRequired())));
    }

    /** A state change: the reader, the origin checks and the CSRF token, then the form. */
    public Mono<Submission> submission(ServerRequest request) {
        return Mono.defer(() -> {
            checkOrigin(request);
            return reader(request);
        }).flatMap(reader -> request.formData()
                // a body that is no form, too big or cut off is the sender's fault: 400, never a 500
                .onErrorMap(e -> !(e instanceof ConsoleException), e -> ConsoleException.badRequest("The form could not be read."))
                .defaultIfEmpty(new org.springframework.util.LinkedMultiValueMap<>())
                .map(form -> {
                    String token = form.getFirst(CSRF_FIELD);
                    if (token == null) {
                        token = request.headers().firstHeader(CSRF_HEADER);
                    }
                    if (!Secrets.same(token, reader.csrf())) {
                        throw new ConsoleException(HttpStatus.FORBIDDEN,
                                "This form is out of date or was not sent by the console (CSRF token missing or wrong): reload the page and try again.");
                    }
                    return new Submission(reader, form);
                }));
    }

    /**
     * A navigation (GET) that starts something on the user's behalf (an OAuth connect flow): the browser's
     * {@code Sec-Fetch-Site} must be {@code same-origin} when sent (a link on another site is refused), then the reader.
     */
    public Mono<Reader> sameSiteNavigation(ServerRequest request) {
        return Mono.defer(() -> {
            String site = request.headers().firstHeader("Sec-Fetch-Site");
            if (site != null && !site.equals("same-origin")) {
                throw forbiddenOrigin();
            }
            return reader(request);
        });
    }

    /**
     * A browser says where a request comes from: {@code Sec-Fetch-Site} must be {@code same-origin} and {@code Origin}
     * this site's own, when sent (every current browser sends both on a POST). Under {@code Referrer-Policy:
     * no-referrer} a browser sends {@code Origin: null} for a form post: that counts only with {@code Sec-Fetch-Site:
     * same-origin} beside it.
     */
    void checkOrigin(ServerRequest request) {
        String site = request.headers().firstHeader("Sec-Fetch-Site");
        if (site != null && !site.equals("same-origin")) {
            throw forbiddenOrigin();
        }
        String origin = request.headers().firstHeader(HttpHeaders.ORIGIN);
        if (origin == null) {
            return;
        }
        if ("null".equals(origin) ? site == null : !sameOrigin(origin, request)) {
            throw forbiddenOrigin();
        }
    }

    private boolean sameOrigin(String origin, ServerRequest request) {
        try {
            URI own = URI.create(baseUrl.of(request));
            URI given = URI.create(origin);
            return own.getScheme().equalsIgnoreCase(given.getScheme()) && own.getHost().equalsIgnoreCase(given.getHost())
                    && port(own) == port(given);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static int port(URI uri) {
        return uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    private static ConsoleException forbiddenOrigin() {
        return new ConsoleException(HttpStatus.FORBIDDEN, "This request did not come from the console's own pages.");
    }

    public static UUID uuid(String text) {
        try {
            UUID id = UUID.fromString(text);
            if (!id.toString().equals(text.toLowerCase(Locale.ROOT))) {
                throw ConsoleException.notFound();
            }
            return id;
        } catch (IllegalArgumentException | NullPointerException e) {
            throw ConsoleException.notFound();
        }
    }

    public static boolean isHtmx(ServerRequest request) {
        return "true".equals(request.headers().firstHeader("HX-Request"));
    }

    /** The page (or fragment) for a failure: never a stack trace; a bug is logged once as such. */
    public Mono<ServerResponse> failure(ServerRequest request, Throwable failure) {
        if (failure instanceof ConsoleException.SignInRequired) {
            if (isHtmx(request) || request.method().name().equals("POST")) {
                return ServerResponse.status(HttpStatus.UNAUTHORIZED).header("HX-Redirect", ConsolePaths.SIGN_IN)
                        .contentType(ConsolePages.HTML).bodyValue(pages.render("fragments :: message",
                                Map.of("message", "Your session has ended: sign in again.")));
            }
            String next = request.uri().getRawPath() + (request.uri().getRawQuery() == null ? "" : "?" + request.uri().getRawQuery());
            return ServerResponse.seeOther(URI.create(ConsolePaths.SIGN_IN + "?next="
                    + URLEncoder.encode(ConsolePaths.safeReturn(next), StandardCharsets.UTF_8))).build();
        }
        HttpStatus status;
        String message;
        if (failure instanceof ConsoleException refused) {
            status = refused.status();
            message = refused.getMessage();
        } else if (failure instanceof ApiException api) {
            status = HttpStatus.valueOf(api.status().value());
            message = api.getMessage();
        } else if (failure instanceof DecisionTimeoutException) {
            status = HttpStatus.GATEWAY_TIMEOUT;
            message = "The decision service did not answer in time: reload the page to see whether it took effect.";
        } else if (failure instanceof DecisionServiceUnavailableException) {
            status = HttpStatus.SERVICE_UNAVAILABLE;
            message = "The decision service is unavailable: nothing was decided. Try again shortly.";
        } else if (ReadModelFailures.whyUnavailable(failure) != null) {
            status = HttpStatus.SERVICE_UNAVAILABLE;
            message = "The gateway's database cannot be reached right now. Try again shortly.";
            log.warn("console: the read model is unavailable ({})", ReadModelFailures.whyUnavailable(failure));
        } else if (failure instanceof OidcIssuer.IssuerUnavailableException idp) {
            status = HttpStatus.SERVICE_UNAVAILABLE;
            message = "The identity provider cannot be used right now. Try again shortly.";
            log.warn("console: the identity provider is unavailable: {}", idp.getMessage());
        } else {
            status = HttpStatus.INTERNAL_SERVER_ERROR;
            message = "Something went wrong on the gateway's side. Nothing was changed by this page.";
            log.error("console: {} {} failed", request.method(), request.path(), failure);
        }
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("status", status.value());
        model.put("message", message);
        if (isHtmx(request)) {
            return ServerResponse.status(status).contentType(ConsolePages.HTML)
                    .bodyValue(pages.render("fragments :: message", model));
        }
        return pages.page(status, "error", model);
    }
}
