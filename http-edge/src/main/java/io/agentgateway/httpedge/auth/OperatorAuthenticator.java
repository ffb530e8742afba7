package io.agentgateway.httpedge.auth;

import io.agentgateway.httpedge.web.ApiException;
import java.util.Set;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/** A verified user JWT whose subject is one of {@code gateway.auth.operators}: 401, then 403 {@value #OPERATOR_REQUIRED}. */
@Component
public class OperatorAuthenticator {
    public static final String OPERATOR_REQUIRED = "Operator role required";

    private final UserAuthenticator users;
    private final Set<String> operators;

    public OperatorAuthenticator(UserAuthenticator users, OperatorProperties properties) {
        this.users = users;
        this.operators = properties.operatorIds();
    }

    /** Whether this user id is one of {@code gateway.auth.operators}. */
    public boolean isOperator(String userId) {
        return userId != null && operators.contains(userId);
    }

    public Mono<AuthenticatedUser> authenticate(ServerRequest request) {
        return users.authenticate(request).map(user -> {
            if (!isOperator(user.userId())) {
                throw ApiException.forbidden(OPERATOR_REQUIRED);
            }
            return user;
        });
    }
}
