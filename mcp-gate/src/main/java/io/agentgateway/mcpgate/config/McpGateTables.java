package io.agentgateway.mcpgate.config;

import io.agentgateway.httpedge.web.IngressMigrations;
import io.agentgateway.httpedge.web.IngressTables;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The MCP gate's table in the ingress's schema ({@link IngressTables}): {@code mcp_task_results} (a held call's task
 * bound to the key that made it), from {@code db/ingress/mcp-gate}. It was version 3 of the history the ingress's
 * modules shared before each migrated its own.
 */
@Configuration(proxyBeanMethods = false)
public class McpGateTables {

    @Bean
    IngressMigrations mcpGateMigrations() {
        return IngressMigrations.of("mcp-gate").adopting("3");
    }
}
