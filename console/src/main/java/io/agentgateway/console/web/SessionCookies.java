package io.agentgateway.console.web;

import io.agentgateway.console.session.ConsoleProperties;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import java.time.Duration;
import org.springframework.http.HttpCookie;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The console's cookies: the session's random id and, during a sign-in at the provider, the flow's state. Both
 * {@code HttpOnly}, {@code SameSite=Lax} (the provider's redirect back is a cross-site navigation that must carry the
 * flow's cookie; every state change also needs the CSRF token, which no other site can read), and {@code Secure}
 * under https, then with the {@code __Host-} prefix (no subdomain can set or shadow them).
 */
@Component
public class SessionCookies {
    static final String SESSION = "agw_session";
    static final String FLOW = "agw_signin";
    private static final String HOST_PREFIX = "__Host-";

    private final ConsoleProperties properties;
    private final PublicBaseUrl baseUrl;

    SessionCookies(ConsoleProperties properties, PublicBaseUrl baseUrl) {
        this.properties = properties;
        this.baseUrl = baseUrl;
    }

    public boolean secure(ServerRequest request) {
        if (properties.secureCookies() != null) {
            return properties.secureCookies();
        }
        return baseUrl.of(request).startsWith("https:");
    }

    public String session(ServerRequest request) {
        return value(request, SESSION);
    }

    public String flow(ServerRequest request) {
        return value(request, FLOW);
    }

    public ResponseCookie sessionCookie(ServerRequest request, String id) {
        return cookie(request, SESSION, id, properties.absoluteTimeout());
    }

    public ResponseCookie flowCookie(ServerRequest request, String state) {
        return cookie(request, FLOW, state, properties.signInTtl());
    }

    public ResponseCookie clearSession(ServerRequest request) {
        return cookie(request, SESSION, "", Duration.ZERO);
    }

    public ResponseCookie clearFlow(ServerRequest request) {
        return cookie(request, FLOW, "", Duration.ZERO);
    }

    private ResponseCookie cookie(ServerRequest request, String name, String value, Duration maxAge) {
        boolean secure = secure(request);
        return ResponseCookie.from(secure ? HOST_PREFIX + name : name, value)
                .httpOnly(true).secure(secure).sameSite("Lax").path("/").maxAge(maxAge).build();
    }

    private String value(ServerRequest request, String name) {
        HttpCookie cookie = request.cookies().getFirst(secure(request) ? HOST_PREFIX + name : name);
        return cookie == null || cookie.getValue().isEmpty() ? null : cookie.getValue();
    }
}
