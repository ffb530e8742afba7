package io.agentgateway.httpedge.auth;

import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.server.ServerRequest;

/** The token of an {@code Authorization: Bearer <token>} header (the scheme is case-insensitive, RFC 6750). */
public final class BearerTokens {
    private static final String SCHEME = "bearer ";

    private BearerTokens() {}

    /** Whether the request has an Authorization header at all. */
    public static boolean hasAuthorization(ServerRequest request) {
        return request.headers().firstHeader(HttpHeaders.AUTHORIZATION) != null;
    }

    public static Optional<String> of(ServerRequest request) {
        String header = request.headers().firstHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || header.length() <= SCHEME.length()
                || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.empty();
        }
        String token = header.substring(SCHEME.length()).trim();
        return token.isEmpty() || token.indexOf(' ') >= 0 ? Optional.empty() : Optional.of(token);
    }
}
