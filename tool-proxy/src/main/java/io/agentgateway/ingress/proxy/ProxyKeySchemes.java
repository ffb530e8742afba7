package io.agentgateway.ingress.proxy;

import io.agentgateway.ingress.auth.ApiKeyScheme;
import io.agentgateway.schemas.Tool;
import java.util.EnumSet;
import java.util.Set;

/**
 * The forms of the agent's API key each tool's proxy path takes: {@code Bearer} (spec 5) everywhere,
 * plus what the tool's own SDK sends when the agent's key is configured as that tool's key, so that an
 * agent changes the base URL and the key and nothing else. The key is never forwarded (the agent's
 * {@code Authorization} stays behind, {@link ProxyHeaders}).
 */
final class ProxyKeySchemes {
    /** octokit ({@code new Octokit({auth})}) and the code host's other clients send {@code token <key>}. */
    private static final Set<ApiKeyScheme> CODE_HOST = EnumSet.of(ApiKeyScheme.BEARER, ApiKeyScheme.TOKEN);
    /** The Linear SDK's {@code apiKey} is sent as the whole header value; its {@code accessToken} as Bearer. */
    private static final Set<ApiKeyScheme> ISSUE_TRACKER = EnumSet.of(ApiKeyScheme.BEARER, ApiKeyScheme.RAW);
    /** Chat, docs and internal APIs: their clients send Bearer tokens. */
    private static final Set<ApiKeyScheme> BEARER_ONLY = EnumSet.of(ApiKeyScheme.BEARER);

    private ProxyKeySchemes() {}

    static Set<ApiKeyScheme> of(Tool tool) {
        return switch (tool) {
            case CODE_HOST -> CODE_HOST;
            case ISSUE_TRACKER -> ISSUE_TRACKER;
            default -> BEARER_ONLY;
        };
    }
}
