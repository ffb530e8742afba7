package io.agentgateway.httpedge.auth;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.ErrorMessages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/** The user behind {@code Authorization: Bearer <USER_JWT>}, or a 401 (503 when the JWKS cannot be read). */
@Component
public class UserAuthenticator {
    private static final Logger log = LoggerFactory.getLogger(UserAuthenticator.class);
    private final JwtVerifier verifier;

    public UserAuthenticator(JwtVerifier verifier) {
        this.verifier = verifier;
    }

    public Mono<AuthenticatedUser> authenticate(ServerRequest request) {
        if (!BearerTokens.hasAuthorization(request)) {
            return Mono.error(ApiException.unauthorized(ErrorMessages.AUTHENTICATION_REQUIRED));
        }
        String token = BearerTokens.of(request).orElse(null);
        if (token == null) {
            return Mono.error(ApiException.unauthorized(ErrorMessages.INVALID_TOKEN));
        }
        Mono<AuthenticatedUser> verified = verifier.mayBlock()
                ? Blocking.call(() -> verifier.verify(token).orElse(null))
                : Mono.justOrEmpty(verifier.verify(token));
        return verified
                .switchIfEmpty(Mono.error(() -> ApiException.unauthorized(ErrorMessages.INVALID_TOKEN)))
                .onErrorMap(JwtVerifier.KeysUnavailableException.class, e -> {
                    log.warn("cannot verify a user token: {}", e.getMessage());
                    return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, ErrorMessages.AUTH_UNAVAILABLE);
                });
    }
}
