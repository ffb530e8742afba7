package io.agentgateway.ingress.web;

import io.agentgateway.schemas.Tool;
import java.util.Optional;

/**
 * What an admin enters into a tool's upstream webhook configuration (spec section 6): the payload URL
 * of the gateway's webhook endpoint for the tool and the content type; the secret is the connection's
 * webhook secret. Only the code host and the issue tracker send webhooks.
 */
public record WebhookSetup(String payloadUrl, String contentType) {
    public static final String CODE_HOST_PATH = "/functions/v1/webhook-code-host";
    public static final String ISSUE_TRACKER_PATH = "/functions/v1/webhook-issue-tracker";
    public static final String CONTENT_TYPE = "application/json";

    /** @param baseUrl the service's public base address, without a trailing slash */
    public static Optional<WebhookSetup> of(Tool tool, String baseUrl) {
        return path(tool).map(path -> new WebhookSetup(baseUrl + path, CONTENT_TYPE));
    }

    public static Optional<String> path(Tool tool) {
        return switch (tool) {
            case CODE_HOST -> Optional.of(CODE_HOST_PATH);
            case ISSUE_TRACKER -> Optional.of(ISSUE_TRACKER_PATH);
            default -> Optional.empty();
        };
    }

    public static boolean sendsWebhooks(Tool tool) {
        return path(tool).isPresent();
    }
}
