package io.agentgateway.ingressapi;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.agentapi.status.ApprovalStatusHandler;
import io.agentgateway.agentapi.evaluate.EvaluateActionHandler;
import io.agentgateway.mcpgate.transport.McpGateHandler;
import io.agentgateway.mcpgate.transport.McpSseTransport;
import io.agentgateway.toolproxy.GatewayProxyHandler;
import io.agentgateway.httpedge.web.MethodRoutes;
import io.agentgateway.webhooks.WebhookHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The paths of the agents' doors (evaluate-action, the approval status, the MCP gate, the webhooks, the proxy). The admin
 * API's are its own ({@code adminapi.AdminRoutes}), the console's too; unknown paths fall through to a 404 JSON error.
 */
@Configuration(proxyBeanMethods = false)
class IngressRoutes {
    @Bean
    RouterFunction<ServerResponse> functionRoutes(EvaluateActionHandler evaluate, ApprovalStatusHandler approvals,
                                                  McpGateHandler mcpGate, McpSseTransport mcpSse, WebhookHandler webhooks) {
        RouterFunction<ServerResponse> routes = MethodRoutes.path(EvaluateActionHandler.PATH).post(evaluate::evaluate).build()
                .and(MethodRoutes.path("/functions/v1/mcp-gate/status/{approvalId}").get(approvals::status).build())
                // POST: the JSON exchange of spec 4.3 and the Streamable HTTP transport, or (with ?sessionId=) a
                // message of an HTTP+SSE session; GET: the HTTP+SSE event stream, else 405 (see McpSseTransport)
                .and(MethodRoutes.path(McpGateHandler.PATH)
                        .post(request -> McpSseTransport.isSessionPost(request) ? mcpSse.post(request) : mcpGate.post(request))
                        .get(mcpSse::get).build());
        // each tool that sends webhooks, at its profile's path
        for (ToolProfile profile : ToolProfiles.where(ToolProfile::sendsWebhooks)) {
            routes = routes.and(MethodRoutes.path(profile.webhooks().orElseThrow().path())
                    .post(request -> webhooks.receive(request, profile.tool())).build());
        }
        return routes;
    }

    /** The outbound proxy takes every method: the upstream's API decides which it serves. */
    @Bean
    RouterFunction<ServerResponse> proxyRoutes(GatewayProxyHandler proxy) {
        return RouterFunctions.route(RequestPredicates.path(GatewayProxyHandler.ROUTE), proxy::proxy);
    }
}
