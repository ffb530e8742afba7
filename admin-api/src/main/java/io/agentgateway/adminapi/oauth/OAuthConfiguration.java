package io.agentgateway.adminapi.oauth;

import io.agentgateway.egress.EgressPolicy;
import io.agentgateway.httpedge.secret.ConfiguredSecretBox;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.secret.SecretBox;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Whether a tool's flow can run at all: a state key, the tool's OAuth app (URLs and credentials) and
 * {@code gateway.secrets.key} to seal the token with. Each missing piece is a 503 that names the
 * setting, checked before anything is started or exchanged.
 */
@Component
class OAuthConfiguration {
    static final String SECRETS_NOT_CONFIGURED = "Secret storage is not configured";

    private final OAuthProperties properties;
    private final OAuthStateTokens states;
    private final ConfiguredSecretBox secrets;

    OAuthConfiguration(OAuthProperties properties, OAuthStateTokens states, ConfiguredSecretBox secrets, EgressPolicy egress) {
        this.properties = properties;
        this.states = states;
        this.secrets = secrets;
        // a token URL the egress policy refuses as written would fail every flow: stop the start instead
        for (OAuthTool tool : OAuthTool.values()) {
            String tokenUrl = tool.client(properties).tokenUrl();
            egress.refusalOfUrl(tokenUrl).ifPresent(rule -> {
                throw new IllegalStateException(tool.settingsPrefix() + ".token-url is refused by the egress policy: " + rule);
            });
        }
    }

    /** The tool's app, once every piece is configured. */
    OAuthClientProperties requireReady(OAuthTool tool) {
        states.requireConfigured();
        OAuthClientProperties app = tool.client(properties);
        if (!app.isConfigured()) {
            String prefix = tool.settingsPrefix();
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "OAuth for " + tool.tool().wire() + " is not configured: set "
                    + prefix + ".client-id, " + prefix + ".client-secret (and the authorize and token URLs)");
        }
        box();
        return app;
    }

    SecretBox box() {
        return secrets.box().orElseThrow(() -> new ApiException(HttpStatus.SERVICE_UNAVAILABLE, SECRETS_NOT_CONFIGURED));
    }
}
