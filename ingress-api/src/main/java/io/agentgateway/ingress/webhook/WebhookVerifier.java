package io.agentgateway.ingress.webhook;

import io.agentgateway.ingress.secret.ConfiguredSecretBox;
import io.agentgateway.schemas.secret.PlainSecret;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Which candidates' secrets the signature verifies with. Every candidate is checked (several
 * workspaces can watch one organization, each with its own secret; each verified one gets the
 * delivery). A secret that cannot be opened verifies nothing: fail closed.
 */
@Component
class WebhookVerifier {
    private static final Logger log = LoggerFactory.getLogger(WebhookVerifier.class);

    private final ConfiguredSecretBox secrets;

    WebhookVerifier(ConfiguredSecretBox secrets) {
        this.secrets = secrets;
    }

    List<UUID> verifiedWorkspaces(List<WebhookCandidate> candidates, byte[] body, byte[] signature) {
        Optional<SecretBox> box = secrets.box();
        if (box.isEmpty()) {
            if (!candidates.isEmpty()) {
                log.warn("webhook secrets cannot be opened: gateway.secrets.key is not set; refusing the delivery");
            }
            return List.of();
        }
        List<UUID> verified = new ArrayList<>();
        for (WebhookCandidate candidate : candidates) {
            PlainSecret secret;
            try {
                secret = box.get().openSecret(candidate.webhookSecret());
            } catch (IllegalArgumentException e) {
                log.warn("the webhook secret of workspace {} cannot be opened with gateway.secrets.key", candidate.workspaceId());
                continue;
            }
            if (HmacSignature.verifies(secret, body, signature)) {
                verified.add(candidate.workspaceId());
            }
        }
        return verified;
    }
}
