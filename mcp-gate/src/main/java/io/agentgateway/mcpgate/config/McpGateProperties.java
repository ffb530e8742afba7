package io.agentgateway.mcpgate.config;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.mcp.*}.
 *
 * @param toolsListTtl        how long a workspace's upstream {@code tools/list} answer is served from memory (spec 4.3 rule 1)
 * @param requestTimeout      how long an upstream MCP request (initialize included) may take before the gate answers with an error
 * @param auditPayloadBytes   the largest compact JSON of a call's arguments sent whole as the EvaluateAction payload;
 *                            larger arguments are sent as an excerpt of this many bytes (see {@code McpAuditPayload})
 * @param sseMaxSessions      how many HTTP+SSE client sessions (GET event streams) one ingress keeps open at most
 * @param sseSessionBuffer    how many answers a session may have waiting for a client that does not read its
 *                            stream; one more closes the session
 * @param sseKeepAlive        how often an idle event stream gets a comment line, so proxies keep it open
 * @param sseMaxSessionsPerKey       event streams one API key may hold open on this instance (more: 429)
 * @param sseMaxSessionsPerWorkspace event streams the keys of one workspace may hold open together on this instance (more: 429)
 * @param sseIdleTimeout      a session whose client has posted nothing and been sent nothing for this long is closed
 * @param maxBatchSize        messages one JSON-RPC batch may hold (more: one -32600 error, nothing is run)
 * @param maxResultBytes      the largest upstream answer (one JSON-RPC message) the gate relays; a larger one is a
 *                            -32002 error that says so
 * @param allowedOrigins      browser origins ({@code Origin} header) the gate serves besides loopback ones (any port of
 *                            localhost, 127.0.0.1, [::1]); a request without Origin (no browser) is always served, one
 *                            with another origin is refused 403 (DNS rebinding)
 * @param serverRequestTimeout how long a request an upstream sent to a client (elicitation, sampling, roots) waits
 *                            here for the client's answer before it is forgotten
 * @param maxServerRequestsPerSession requests an upstream sent to one client session (elicitation, sampling, roots)
 *                            that the gate keeps waiting for the client's answer at once; one more is answered to the
 *                            upstream at once with a JSON-RPC error and never reaches the client
 * @param clientSessionIdleTimeout a client session's upstream session (one per client session and replica) that
 *                            served nothing for this long is closed; the next request opens a new one
 * @param maxClientSessionsPerWorkspace Streamable HTTP client sessions (each with its upstream session) a replica keeps
 *                            per workspace; beyond it the workspace's least recently used idle one is closed first
 */
@ConfigurationProperties("gateway.mcp")
public record McpGateProperties(
        @DefaultValue("PT60S") Duration toolsListTtl,
        @DefaultValue("PT20S") Duration requestTimeout,
        @DefaultValue("65536") int auditPayloadBytes,
        @DefaultValue("1000") int sseMaxSessions,
        @DefaultValue("256") int sseSessionBuffer,
        @DefaultValue("PT15S") Duration sseKeepAlive,
        @DefaultValue("5") int sseMaxSessionsPerKey,
        @DefaultValue("20") int sseMaxSessionsPerWorkspace,
        @DefaultValue("PT10M") Duration sseIdleTimeout,
        @DefaultValue("20") int maxBatchSize,
        @DefaultValue("16777216") int maxResultBytes,
        @DefaultValue("") List<String> allowedOrigins,
        @DefaultValue("PT5M") Duration serverRequestTimeout,
        @DefaultValue("PT10M") Duration clientSessionIdleTimeout,
        @DefaultValue("200") int maxClientSessionsPerWorkspace,
        @DefaultValue("100") int maxServerRequestsPerSession) {

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
        if (sseMaxSessionsPerKey < 1 || sseMaxSessionsPerWorkspace < 1) {
            throw new IllegalArgumentException("gateway.mcp.sse-max-sessions-per-key and -per-workspace must be positive");
        }
        if (sseIdleTimeout.isZero() || sseIdleTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.mcp.sse-idle-timeout must be positive");
        }
        if (maxResultBytes < 65536) {
            throw new IllegalArgumentException("gateway.mcp.max-result-bytes must be at least 65536");
        }
        allowedOrigins = allowedOrigins == null ? List.of()
                : allowedOrigins.stream().filter(origin -> !origin.isBlank()).map(String::strip).toList();
        if (serverRequestTimeout.isZero() || serverRequestTimeout.isNegative()
                || clientSessionIdleTimeout.isZero() || clientSessionIdleTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.mcp.server-request-timeout and client-session-idle-timeout must be positive");
        }
        if (maxBatchSize < 1 || maxClientSessionsPerWorkspace < 1 || maxServerRequestsPerSession < 1) {
            throw new IllegalArgumentException("gateway.mcp.max-batch-size, max-client-sessions-per-workspace and "
                    + "max-server-requests-per-session must be positive");
        }
    }
}
