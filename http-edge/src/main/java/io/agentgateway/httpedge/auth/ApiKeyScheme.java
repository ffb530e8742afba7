package io.agentgateway.httpedge.auth;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The forms an agent's API key takes in the {@code Authorization} header. Spec 5 names {@code Bearer}
 * for every agent endpoint; the proxy also takes, on a tool's own path, the form that tool's SDK sends
 * for a key (an agent swaps the base URL and nothing else): {@code token <key>} (the code host's
 * clients, octokit's default {@code auth}) and the bare key as the whole value (the issue tracker's
 * personal API keys, the Linear SDK's {@code apiKey}). Any other scheme is no key.
 */
public enum ApiKeyScheme {
    /** {@code Authorization: Bearer agk_…} (RFC 6750; the scheme is case-insensitive). */
    BEARER("bearer "),
    /** {@code Authorization: token agk_…} (the code host's own scheme; case-insensitive). */
    TOKEN("token "),
    /** {@code Authorization: agk_…}: the whole value is the key, nothing before it. */
    RAW("");

    private final String prefix;

    ApiKeyScheme(String prefix) {
        this.prefix = prefix;
    }

    /**
     * The key this scheme reads from an {@code Authorization} value: one token with no space in it;
     * {@link #RAW} reads only a value that starts with the key prefix {@code agk_}, so no other scheme's
     * credential is ever taken for a bare key.
     */
    public Optional<String> key(String authorization) {
        if (authorization == null || authorization.length() <= prefix.length()
                || !authorization.regionMatches(true, 0, prefix, 0, prefix.length())) {
            return Optional.empty();
        }
        String token = authorization.substring(prefix.length()).trim();
        if (token.isEmpty() || token.indexOf(' ') >= 0 || token.indexOf('\t') >= 0) {
            return Optional.empty();
        }
        if (this == RAW && !token.startsWith(ApiKeys.PREFIX)) {
            return Optional.empty();
        }
        return Optional.of(token);
    }

    /** The key of the first of {@code accepted} that reads one (the schemes' forms never overlap). */
    public static Optional<String> key(String authorization, Set<ApiKeyScheme> accepted) {
        for (ApiKeyScheme scheme : accepted) {
            Optional<String> key = scheme.key(authorization);
            if (key.isPresent()) {
                return key;
            }
        }
        return Optional.empty();
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
