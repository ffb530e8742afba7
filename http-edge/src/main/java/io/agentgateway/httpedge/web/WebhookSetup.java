package io.agentgateway.httpedge.web;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.schemas.Tool;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an admin enters into a tool's upstream webhook configuration (spec section 6): the payload URL
 * of the gateway's webhook endpoint for the tool and the content type; the secret is the connection's
 * webhook secret. Only the tools whose profile says so send webhooks (the code host and the issue tracker).
 */
public record WebhookSetup(String payloadUrl, String contentType) {
    public static final String CONTENT_TYPE = "application/json";
    private static final Set<String> PATHS = ToolProfiles.where(ToolProfile::sendsWebhooks).stream()
            .map(profile -> profile.webhooks().orElseThrow().path())
            .collect(Collectors.toUnmodifiableSet());

    /** @param baseUrl the service's public base address, without a trailing slash */
    public static Optional<WebhookSetup> of(Tool tool, String baseUrl) {
        return path(tool).map(path -> new WebhookSetup(baseUrl + path, CONTENT_TYPE));
    }

    public static Optional<String> path(Tool tool) {
        return ToolProfiles.of(tool).webhooks().map(ToolProfile.Webhooks::path);
    }

    public static boolean sendsWebhooks(Tool tool) {
        return ToolProfiles.of(tool).sendsWebhooks();
    }

    /** Whether a request path is one of the webhook endpoints. */
    public static boolean isWebhookPath(String path) {
        return PATHS.contains(path);
    }
}
