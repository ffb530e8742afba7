package io.agentgateway.adminapi.oauth;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.oauth.*}: the OAuth connect flows of the code host and the issue tracker.
 *
 * @param stateKey     base64 of at least 32 random bytes, the HS256 key that signs the {@code state}
 *                     of a flow; its own key (not the user-JWT secret: a state must never pass as a
 *                     login, nor a login as a state). Every replica needs the same one. Unset: the
 *                     flows answer 503
 * @param stateTtl     how long an admin has between the start and the callback
 * @param tokenTimeout the whole exchange of a code at the token URL (then 504)
 * @param codeHost     the code host's OAuth app
 * @param issueTracker the issue tracker's OAuth app
 */
@ConfigurationProperties("gateway.oauth")
public record OAuthProperties(
        String stateKey,
        @DefaultValue("PT10M") Duration stateTtl,
        @DefaultValue("PT10S") Duration tokenTimeout,
        @DefaultValue OAuthClientProperties codeHost,
        @DefaultValue OAuthClientProperties issueTracker) {

    public OAuthProperties {
        if (stateTtl.isNegative() || stateTtl.isZero() || tokenTimeout.isNegative() || tokenTimeout.isZero()) {
            throw new IllegalArgumentException("gateway.oauth.state-ttl and gateway.oauth.token-timeout must be positive");
        }
    }

    /**
     * The app configured under {@code gateway.oauth.<key>}, by the key a tool's profile names
     * ({@code ToolProfile.OAuth#settingsKey}): each tool with OAuth has its component here.
     *
     * @throws IllegalArgumentException for a key no component binds
     */
    OAuthClientProperties app(String key) {
        OAuthClientProperties app = switch (key) {
            case "code-host" -> codeHost;
            case "issue-tracker" -> issueTracker;
            default -> throw new IllegalArgumentException("no OAuth app is bound under gateway.oauth." + key);
        };
        return app == null ? new OAuthClientProperties(null, null, null, null, null) : app;
    }

    /** Never prints the keys. */
    @Override
    public String toString() {
        return "OAuthProperties[stateKey=" + (stateKey == null ? "unset" : "redacted") + ", stateTtl=" + stateTtl
                + ", tokenTimeout=" + tokenTimeout + ", codeHost=" + codeHost + ", issueTracker=" + issueTracker + "]";
    }
}
