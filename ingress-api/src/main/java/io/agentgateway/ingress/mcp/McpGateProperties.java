package io.agentgateway.ingress.mcp;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.mcp.*}.
 *
 * @param toolsListTtl        how long a workspace's upstream {@code tools/list} answer is served from memory (spec 4.3 rule 1)
 * @param requestTimeout      how long an upstream MCP request (initialize included) may take before the gate answers with an error
 * @param auditPayloadBytes   the largest compact JSON of a call's arguments sent whole as the EvaluateAction payload;
 *                            larger arguments are sent as an excerpt of this many bytes (see {@link McpAuditPayload})
 * @param sseMaxSessions      how many HTTP+SSE client sessions (GET event streams) one ingress keeps open at most
 * @param sseSessionBuffer    how many answers a session may have waiting for a client that does not read its
 *                            stream; one more closes the session
 * @param sseKeepAlive        how often an idle event stream gets a comment line, so proxies keep it open
 */
@ConfigurationProperties("gateway.mcp")
public record McpGateProperties(
        @DefaultValue("PT60S") Duration toolsListTtl,
        @DefaultValue("PT20S") Duration requestTimeout,
        @DefaultValue("65536") int auditPayloadBytes,
        @DefaultValue("1000") int sseMaxSessions,
        @DefaultValue("256") int sseSessionBuffer,
        @DefaultValue("PT15S") Duration sseKeepAlive) {

    public McpGateProperties {
        if (toolsListTtl.isNegative()) {
            throw new IllegalArgumentException("gateway.mcp.tools-list-ttl must not be negative");
        }
        if (requestTimeout.isZero() || requestTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.mcp.request-timeout must be positive");
        }
        if (auditPayloadBytes < 256) {
            throw new IllegalArgumentException("gateway.mcp.audit-payload-bytes must be at least 256");
        }
        if (sseMaxSessions < 1 || sseSessionBuffer < 1) {
            throw new IllegalArgumentException("gateway.mcp.sse-max-sessions and sse-session-buffer must be positive");
        }
        if (sseKeepAlive.isZero() || sseKeepAlive.isNegative()) {
            throw new IllegalArgumentException("gateway.mcp.sse-keep-alive must be positive");
        }
    }
}
