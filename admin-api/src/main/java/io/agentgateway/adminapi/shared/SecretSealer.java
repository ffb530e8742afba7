package io.agentgateway.adminapi.shared;

import io.agentgateway.httpedge.secret.ConfiguredSecretBox;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.secret.PlainSecret;
import io.agentgateway.schemas.secret.SealedSecret;
import io.agentgateway.schemas.secret.SecretBox;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Seals what an admin sends as a secret (a chat incoming-webhook URL, a tool's access token, a
 * webhook secret) before it goes into a command, so no plain value ever enters the log. Without
 * {@code gateway.secrets.key} the request is refused with 503 rather than sent in clear.
 */
@Component
public class SecretSealer {
    public static final String NOT_CONFIGURED = "Secret storage is not configured";

    private final ConfiguredSecretBox secrets;

    SecretSealer(ConfiguredSecretBox secrets) {
        this.secrets = secrets;
    }

    public String seal(String plaintext) {
        return box().seal(plaintext);
    }

    public SealedSecret seal(PlainSecret plaintext) {
        return box().sealSecret(plaintext.reveal());
    }

    /** Fails before any work is done, when a request will need to seal something. */
    public void requireConfigured() {
        box();
    }

    private SecretBox box() {
        return secrets.box().orElseThrow(() -> new ApiException(HttpStatus.SERVICE_UNAVAILABLE, NOT_CONFIGURED));
    }
}
