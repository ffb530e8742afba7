package io.agentgateway.httpedge.secret;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code gateway.secrets.key}: base64 of 32 random bytes, the AES key that seals the chat webhook
 * URL before it leaves the ingress. Optional: without it the ingress runs, but refuses to store a
 * chat webhook URL (it would otherwise have to send it in clear).
 */
@ConfigurationProperties("gateway.secrets")
public record SecretsProperties(String key) {}
