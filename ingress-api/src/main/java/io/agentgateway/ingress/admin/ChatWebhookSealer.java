package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.config.SecretsProperties;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.schemas.secret.SecretBox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Seals a chat incoming-webhook URL (a credential: whoever has it can post) with
 * {@code gateway.secrets.key} before it goes into a command. Without a key the URL is refused
 * rather than sent in clear.
 */
@Component
class ChatWebhookSealer {
    private static final Logger log = LoggerFactory.getLogger(ChatWebhookSealer.class);

    private final SecretBox box;

    ChatWebhookSealer(SecretsProperties secrets) {
        this.box = secrets.key() == null || secrets.key().isBlank() ? null : SecretBox.fromBase64Key(secrets.key());
        if (box == null) {
            log.warn("gateway.secrets.key is not set: chat webhook URLs cannot be stored");
        }
    }

    String seal(String url) {
        if (box == null) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "Secret storage is not configured");
        }
        return box.seal(url);
    }
}
