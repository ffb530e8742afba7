package io.agentgateway.ingress.mcp;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.mcp.*}.
 *
 * @param toolsListTtl    how long a workspace's upstream {@code tools/list} answer is served from memory (spec 4.3 rule 1)
 * @param requestTimeout  how long an upstream MCP request (initialize included) may take before the gate answers with an error
 */
@ConfigurationProperties("gateway.mcp")
public record McpGateProperties(
        @DefaultValue("PT60S") Duration toolsListTtl,
        @DefaultValue("PT20S") Duration requestTimeout) {

    public McpGateProperties {
        if (toolsListTtl.isNegative()) {
            throw new IllegalArgumentException("gateway.mcp.tools-list-ttl must not be negative");
        }
        if (requestTimeout.isZero() || requestTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.mcp.request-timeout must be positive");
        }
    }
}
