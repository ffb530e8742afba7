package io.agentgateway.ingress.proxy;

import io.agentgateway.ingress.connection.OpenedToolConnection;
import io.agentgateway.ingress.connection.ToolConnections;
import io.agentgateway.ingress.connection.UnreadableSecretException;
import io.agentgateway.ingress.execution.UpstreamTarget;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.schemas.Tool;
import java.net.URI;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Where a workspace's proxied calls to a tool go: the connection's base URL (or the tool's usual one
 * from {@code gateway.proxy.default-base-urls}), the credential headers made from its stored token,
 * and its classification rules.
 * Blocking (JDBC): call off the event loop.
 */
@Component
class ProxyTargets {
    private static final Logger log = LoggerFactory.getLogger(ProxyTargets.class);
    static final String UNREADABLE = "The stored credential of this tool cannot be used; reconnect the tool";

    private final ToolConnections connections;
    private final ProxyProperties properties;

    ProxyTargets(ToolConnections connections, ProxyProperties properties) {
        this.connections = connections;
        this.properties = properties;
    }

    /** @throws ApiException 409 when the workspace has no usable connection to the tool (none, no token, no base URL) */
    ProxyTarget require(UUID workspaceId, Tool tool) {
        OpenedToolConnection connection;
        try {
            connection = connections.find(workspaceId, tool).orElseThrow(() -> new ApiException(HttpStatus.CONFLICT,
                    "No " + tool.wire() + " connection is configured for this workspace; an admin connects it under tool settings"));
        } catch (UnreadableSecretException e) {
            // the message names the workspace and tool, never the secret
            log.error("proxy: {}", e.getMessage());
            throw new ApiException(HttpStatus.CONFLICT, UNREADABLE);
        }
        if (ToolCredentials.tokenRequired(tool) && connection.accessToken() == null) {
            throw new ApiException(HttpStatus.CONFLICT,
                    "The " + tool.wire() + " connection has no access token; an admin connects it (OAuth) first");
        }
        return new ProxyTarget(new UpstreamTarget(baseUrl(connection, tool), ToolCredentials.headers(tool, connection.accessToken())),
                connection.config().rules());
    }

    private URI baseUrl(OpenedToolConnection connection, Tool tool) {
        if (connection.baseUrl() != null && !connection.baseUrl().isBlank()) {
            try {
                return URI.create(connection.baseUrl());
            } catch (IllegalArgumentException e) {
                throw new ApiException(HttpStatus.CONFLICT, "The " + tool.wire() + " connection's base_url is not a valid URL");
            }
        }
        URI fallback = properties.defaultBaseUrls().get(tool.wire());
        if (fallback == null) {
            throw new ApiException(HttpStatus.CONFLICT,
                    "The " + tool.wire() + " connection has no base_url; an admin sets it under tool settings");
        }
        return fallback;
    }
}
