package io.agentgateway.httpedge.auth;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.ErrorMessages;
import java.util.Set;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * A syntactically valid API key from the request: the workspace it names and its hash. Whether the
 * key is real, unexpired, unrevoked and has the scope is decided elsewhere (the decision stream for
 * evaluations, a {@code CheckAccess} command through it for reads).
 */
public record ApiKeyCredential(UUID workspaceId, String keyHash) {

    /** @throws ApiException 401 when the header is missing or does not carry a well-formed key */
    public static ApiKeyCredential from(ServerRequest request) {
        return from(request, Set.of(ApiKeyScheme.BEARER));
    }

    /**
     * The key in one of the {@code accepted} forms ({@link ApiKeyScheme}): the proxy takes the one its
     * tool's own SDK sends.
     *
     * @throws ApiException 401 when the header is missing or carries no well-formed key in those forms
     */
    public static ApiKeyCredential from(ServerRequest request, Set<ApiKeyScheme> accepted) {
        String key = ApiKeyScheme.key(request.headers().firstHeader(HttpHeaders.AUTHORIZATION), accepted)
                .orElseThrow(() -> ApiException.unauthorized(ErrorMessages.INVALID_API_KEY));
        UUID workspace = ApiKeys.parseWorkspace(key).orElseThrow(() -> ApiException.unauthorized(ErrorMessages.INVALID_API_KEY));
        return new ApiKeyCredential(workspace, ApiKeys.hash(key));
    }
}
