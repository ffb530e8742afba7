package io.agentgateway.notifier;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code gateway.secrets.key}: base64 of the 32-byte key that sealed the chat webhook URLs.
 *
 * @param key never printed: {@link #toString()} hides it
 */
@ConfigurationProperties("gateway.secrets")
public record SecretsProperties(String key) {

    @Override
    public String toString() {
        return "SecretsProperties[key=" + (key == null || key.isBlank() ? "<unset>" : "<hidden>") + "]";
    }
}
