package io.agentgateway.toolproxy;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.httpedge.auth.ApiKeyScheme;
import io.agentgateway.schemas.Tool;
import java.util.EnumSet;
import java.util.Set;

/**
 * The forms of the agent's API key each tool's proxy path takes, as its profile says
 * ({@link ToolProfile.Proxied#keyForms()}): {@code Bearer} (spec 5) everywhere, plus what the tool's own SDK sends
 * when the agent's key is configured as that tool's key (the code host's clients {@code token <key>}, the Linear
 * SDK's {@code apiKey} the bare key), so that an agent changes the base URL and the key and nothing else. The key
 * is never forwarded (the agent's {@code Authorization} stays behind, {@link ProxyHeaders}).
 */
final class ProxyKeySchemes {

    private ProxyKeySchemes() {}

    static Set<ApiKeyScheme> of(Tool tool) {
        Set<ApiKeyScheme> schemes = EnumSet.noneOf(ApiKeyScheme.class);
        for (ToolProfile.KeyForm form : ProxyClassifier.proxied(tool).keyForms()) {
            schemes.add(scheme(form));
        }
        return schemes;
    }

    private static ApiKeyScheme scheme(ToolProfile.KeyForm form) {
        return switch (form) {
            case BEARER -> ApiKeyScheme.BEARER;
            case TOKEN -> ApiKeyScheme.TOKEN;
            case RAW -> ApiKeyScheme.RAW;
        };
    }
}
