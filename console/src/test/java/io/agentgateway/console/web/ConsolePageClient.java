package io.agentgateway.console.web;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.workspaces.Workspaces;
import io.agentgateway.console.ConsoleConfiguration;
import io.agentgateway.console.session.ConsoleProperties;
import io.agentgateway.console.session.ConsoleSession;
import io.agentgateway.console.session.ConsoleSessions;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import io.agentgateway.httpedge.web.PublicUrlProperties;
import io.agentgateway.schemas.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * A console page's fast test (spring-petclinic's {@code OwnerControllerTests} pattern, with WebTestClient): the screen's
 * real routes, handler, templates (the console's own Thymeleaf engine), request pipeline (session cookie, CSRF) and
 * security headers; at the module's boundary stubs: the admin API's services (each test's Mockito mocks), and what the
 * console reads from PostgreSQL itself: the signed-in session ({@link #signedIn}) and its memberships. No browser, no
 * database: the launcher's browser suite runs every screen against the whole gateway.
 */
public final class ConsolePageClient {
    public static final String BASE_URL = "http://console.example";
    /** The test session's cookie value (the length of a real one). */
    public static final String SESSION_ID = "S".repeat(43);
    public static final String CSRF = "the-csrf-token-of-the-test-session";
    public static final UUID WORKSPACE = UUID.fromString("5d2c7a1e-4b3f-4c8e-9a1d-0e2f3a4b5c6d");
    public static final ConsoleProperties PROPERTIES = new ConsoleProperties(Duration.ofMinutes(30), Duration.ofHours(12),
            Duration.ofMinutes(5), Duration.ofMinutes(15), Duration.ofMinutes(10), false, Duration.ofSeconds(10));

    private final ConsoleSessions sessions = mock(ConsoleSessions.class);
    private final Memberships memberships = mock(Memberships.class);
    private final Workspaces workspaces = mock(Workspaces.class);
    private final PublicBaseUrl baseUrl = new PublicBaseUrl(new PublicUrlProperties(BASE_URL));
    private final ConsolePages pages = new ConsolePages(new ConsoleConfiguration().consoleTemplateEngine());
    private final SessionCookies cookies = new SessionCookies(PROPERTIES, baseUrl);
    private final ConsoleRequests requests = new ConsoleRequests(sessions, memberships, cookies, pages, baseUrl, workspaces);

    public ConsolePageClient() {
        when(sessions.find(any())).thenReturn(Optional.empty());
        when(workspaces.isOperator(any(AuthenticatedUser.class))).thenReturn(Mono.just(false));
    }

    /**
     * The test session ({@value #SESSION_ID}) is {@code userId}'s, signed in via {@code link}, with these memberships
     * (each a workspace id and its role; the first is {@link #WORKSPACE}'s when given as {@code role} alone).
     */
    public ConsolePageClient signedIn(String userId, Role role) {
        return signedIn(userId, new Membership(WORKSPACE, "Acme", role));
    }

    public ConsolePageClient signedIn(String userId, Membership... readable) {
        Instant now = Instant.now();
        ConsoleSession session = new ConsoleSession("hash-of-the-session", userId, userId + "@example.test", "link", CSRF, now,
                now, now);
        when(sessions.find(SESSION_ID)).thenReturn(Optional.of(session));
        when(memberships.of(userId)).thenReturn(new ArrayList<>(List.of(readable)));
        return this;
    }

    public ConsolePageClient operator(String userId) {
        when(workspaces.isOperator(new AuthenticatedUser(userId, userId + "@example.test"))).thenReturn(Mono.just(true));
        return this;
    }

    public ConsoleRequests requests() {
        return requests;
    }

    public ConsolePages pages() {
        return pages;
    }

    public PublicBaseUrl baseUrl() {
        return baseUrl;
    }

    public SessionCookies cookies() {
        return cookies;
    }

    public ConsoleSessions sessions() {
        return sessions;
    }

    public Workspaces workspaces() {
        return workspaces;
    }

    /** A WebTestClient bound to the screen's routes, made from this client's pieces; the session cookie goes with every request. */
    public WebTestClient bind(Function<ConsolePageClient, RouterFunction<ServerResponse>> routes) {
        return WebTestClient.bindToRouterFunction(routes.apply(this))
                .webFilter(new ConsoleSecurityHeaders())
                .configureClient()
                .defaultCookie(SessionCookies.SESSION, SESSION_ID)
                .build();
    }

    /** A form as the page posts it, with the session's CSRF token: {@code name, value, name, value, ...}. */
    public static MultiValueMap<String, String> form(String... namesAndValues) {
        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add(ConsoleRequests.CSRF_FIELD, CSRF);
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            form.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return form;
    }

    /** The page the exchange answered, parsed as a browser parses it. */
    public static Document html(EntityExchangeResult<String> result) {
        return Jsoup.parse(result.getResponseBody() == null ? "" : result.getResponseBody(), BASE_URL);
    }
}
