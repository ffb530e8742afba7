package io.agentgateway.adminapi.shared;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.agentgateway.gatewayclient.config.IngressProperties;
import io.agentgateway.httpedge.auth.JwtProperties;
import io.agentgateway.httpedge.auth.JwtVerifier;
import io.agentgateway.httpedge.auth.OperatorAuthenticator;
import io.agentgateway.httpedge.auth.OperatorProperties;
import io.agentgateway.httpedge.auth.UserAuthenticator;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.ErrorDialect;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonErrorWebExceptionHandler;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import io.agentgateway.httpedge.web.PublicUrlProperties;
import io.agentgateway.ingresstestsupport.TestTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * A fast test's HTTP side of one admin resource (spring-petclinic's {@code OwnerControllerTests} pattern, with
 * WebTestClient): the resource's real routes and handler, the HTTP edge's real pieces (user JWTs verified with HS256,
 * bodies read with their limits, every error the API's JSON body), and at the module's boundary stubs: the handler's
 * application service (the test's own Mockito mock) and the projected membership ({@link #role}). No broker, no
 * database: the HTTP tests that start the admin API against both are {@code AdminCommandsTest} and its siblings.
 */
public final class HandlerTestClient {
    public static final String SECRET = "fast-handler-tests-hs256-secret-32-bytes!";
    public static final String OPERATOR = "operator-1";
    public static final String BASE_URL = "https://gateway.example";
    public static final UUID WORKSPACE = UUID.fromString("3f0b5c1e-8a52-4d0e-9d35-6a1f1c2b7e90");
    public static final String ADMIN_REQUIRED = "Admin or owner role required";

    private final WorkspaceRoles roles = mock(WorkspaceRoles.class);
    private final UserAuthenticator users = new UserAuthenticator(new JwtVerifier(new JwtProperties(SECRET, null, null, null)));
    private final AdminAccess access = new AdminAccess(users, roles);
    private final JsonBodyReader bodies = new JsonBodyReader(new IngressProperties(0, Duration.ofSeconds(5), 4096,
            Duration.ZERO, null));

    public HandlerTestClient() {
        when(roles.administers(any(UUID.class), anyString())).thenReturn(false);
    }

    public AdminAccess access() {
        return access;
    }

    public UserAuthenticator users() {
        return users;
    }

    public OperatorAuthenticator operators() {
        return new OperatorAuthenticator(users, new OperatorProperties(List.of(OPERATOR)));
    }

    public JsonBodyReader bodies() {
        return bodies;
    }

    /** The gateway's public base URL, {@value #BASE_URL}. */
    public PublicBaseUrl baseUrl() {
        return new PublicBaseUrl(new PublicUrlProperties(BASE_URL));
    }

    /** The read model shows {@code userId} as admin or owner of {@code workspaceId}. */
    public HandlerTestClient administers(UUID workspaceId, String userId) {
        when(roles.administers(workspaceId, userId)).thenReturn(true);
        return this;
    }

    public WorkspaceRoles roles() {
        return roles;
    }

    /** A WebTestClient bound to {@code routes}, made from this client's edge pieces. */
    public WebTestClient bind(Function<HandlerTestClient, RouterFunction<ServerResponse>> routes) {
        JsonErrorWebExceptionHandler errors = new JsonErrorWebExceptionHandler(
                new DefaultListableBeanFactory().getBeanProvider(ErrorDialect.class));
        return WebTestClient.bindToRouterFunction(routes.apply(this))
                .webFilter(new CorrelationIds())
                .handlerStrategies(HandlerStrategies.builder().exceptionHandler(errors).build())
                .configureClient()
                // bodies are JSON, as the API's clients send them; a test of another type says so
                .defaultHeader(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE)
                .build();
    }

    /** {@code Bearer <a valid user JWT of userId>}. */
    public static String bearer(String userId) {
        return "Bearer " + TestTokens.hs256(SECRET, TestTokens.claims(userId, Instant.now().plus(Duration.ofMinutes(10))).build());
    }
}
