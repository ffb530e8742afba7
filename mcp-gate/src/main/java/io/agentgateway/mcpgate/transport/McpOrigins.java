package io.agentgateway.mcpgate.transport;

import io.agentgateway.mcpgate.config.McpGateProperties;
import io.agentgateway.httpedge.web.ApiException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The {@code Origin} check of the MCP transports (DNS rebinding): a request without {@code Origin} comes
 * from no browser and is served; one from a loopback origin (any port of localhost, 127.0.0.1, [::1]) or
 * from {@code gateway.mcp.allowed-origins} is served; any other is refused 403 before anything is read.
 */
@Component
class McpOrigins {
    static final String REFUSED = "This Origin may not use the MCP gate (gateway.mcp.allowed-origins)";
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]");

    private final List<String> allowed;

    McpOrigins(McpGateProperties properties) {
        this.allowed = properties.allowedOrigins().stream().map(McpOrigins::normalized).toList();
    }

    /** @throws ApiException 403 for an Origin that is neither loopback nor configured */
    void check(ServerRequest request) {
        String origin = request.headers().firstHeader("Origin");
        if (origin == null || allows(origin)) {
            return;
        }
        throw new ApiException(HttpStatus.FORBIDDEN, REFUSED);
    }

    boolean allows(String origin) {
        String normalized = normalized(origin);
        if (allowed.contains(normalized)) {
            return true;
        }
        try {
            URI uri = URI.create(origin.strip());
            String host = uri.getHost();
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && host != null
                    && LOOPBACK.contains(host.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

    private static String normalized(String origin) {
        String value = origin.strip().toLowerCase(Locale.ROOT);
        return value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
    }
}
