package io.agentgateway.httpedge.secret;

import io.agentgateway.schemas.secret.SecretBox;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The {@link SecretBox} of {@code gateway.secrets.key}, the one key this service seals secrets with
 * before they go into a command (chat webhook URLs, tool tokens, webhook secrets) and opens them with
 * when it must use them. Optional: without a key the ingress still runs, but refuses to store a
 * secret (it would otherwise have to send it in clear) and cannot use a stored one.
 */
@Component
public class ConfiguredSecretBox {
    private static final Logger log = LoggerFactory.getLogger(ConfiguredSecretBox.class);

    private final SecretBox box;

    public ConfiguredSecretBox(SecretsProperties secrets) {
        this.box = secrets.key() == null || secrets.key().isBlank() ? null : SecretBox.fromBase64Key(secrets.key());
        if (box == null) {
            log.warn("gateway.secrets.key is not set: chat webhook URLs, tool tokens and webhook secrets cannot be stored or used");
        }
    }

    public Optional<SecretBox> box() {
        return Optional.ofNullable(box);
    }
}
