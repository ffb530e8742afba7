package io.agentgateway.ingressapi;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.adminapi.ApiKeyAdminHandler;
import io.agentgateway.adminapi.ApprovalAdminHandler;
import io.agentgateway.adminapi.AuditExportHandler;
import io.agentgateway.adminapi.AuditLogHandler;
import io.agentgateway.adminapi.AuditPayloadErasureHandler;
import io.agentgateway.adminapi.EvidenceAdminHandler;
import io.agentgateway.adminapi.EvidenceExportHandler;
import io.agentgateway.adminapi.BacktestHandler;
import io.agentgateway.adminapi.ChangeHistoryHandler;
import io.agentgateway.adminapi.DeadLetterAdminHandler;
import io.agentgateway.adminapi.PolicyTestHandler;
import io.agentgateway.adminapi.DefaultsAdminHandler;
import io.agentgateway.adminapi.MemberAdminHandler;
import io.agentgateway.adminapi.NotificationSettingsHandler;
import io.agentgateway.adminapi.PolicyAdminHandler;
import io.agentgateway.adminapi.ToolConnectionAdminHandler;
import io.agentgateway.adminapi.WorkspaceAdminHandler;
import io.agentgateway.adminapi.WorkspaceStateHandler;
import io.agentgateway.agentapi.status.ApprovalStatusHandler;
import io.agentgateway.agentapi.evaluate.EvaluateActionHandler;
import io.agentgateway.adminapi.killswitch.KillSwitchHandler;
import io.agentgateway.mcpgate.transport.McpGateHandler;
import io.agentgateway.mcpgate.transport.McpSseTransport;
import io.agentgateway.adminapi.oauth.OAuthCallbackHandler;
import io.agentgateway.adminapi.oauth.OAuthStartHandler;
import io.agentgateway.toolproxy.GatewayProxyHandler;
import io.agentgateway.httpedge.web.MethodRoutes;
import io.agentgateway.webhooks.WebhookHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/** Every path the ingress serves, in one table. Unknown paths fall through to a 404 JSON error. */
@Configuration(proxyBeanMethods = false)
class IngressRoutes {
    private static final String WORKSPACE = "/admin/v1/workspaces/{workspaceId}";

    @Bean
    RouterFunction<ServerResponse> functionRoutes(EvaluateActionHandler evaluate, KillSwitchHandler killSwitch,
                                                  ApprovalStatusHandler approvals, McpGateHandler mcpGate,
                                                  McpSseTransport mcpSse, WebhookHandler webhooks) {
        RouterFunction<ServerResponse> routes = MethodRoutes.path(EvaluateActionHandler.PATH).post(evaluate::evaluate).build()
                .and(MethodRoutes.path("/functions/v1/kill-switch").post(killSwitch::killSwitch).build())
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

    @Bean
    RouterFunction<ServerResponse> adminRoutes(WorkspaceAdminHandler workspaces, PolicyAdminHandler policies,
                                               DefaultsAdminHandler defaults, ApiKeyAdminHandler apiKeys,
                                               MemberAdminHandler members, NotificationSettingsHandler notifications,
                                               WorkspaceStateHandler state, AuditLogHandler auditLog,
                                               AuditExportHandler auditExport, ToolConnectionAdminHandler tools,
                                               ApprovalAdminHandler approvals, BacktestHandler backtests,
                                               PolicyTestHandler policyTests, DeadLetterAdminHandler deadLetters,
                                               ChangeHistoryHandler changes) {
        return MethodRoutes.path("/admin/v1/workspaces").get(workspaces::list).post(workspaces::create).build()
                .and(MethodRoutes.path(WORKSPACE + "/policies").get(policies::list).post(policies::create).build())
                .and(MethodRoutes.path(WORKSPACE + "/policies/{policyId}").put(policies::replace).delete(policies::delete).build())
                .and(MethodRoutes.path(WORKSPACE + "/defaults").get(defaults::get).put(defaults::put).build())
                .and(MethodRoutes.path(WORKSPACE + "/api-keys").get(apiKeys::list).post(apiKeys::issue).build())
                .and(MethodRoutes.path(WORKSPACE + "/api-keys/{keyId}").delete(apiKeys::revoke).build())
                .and(MethodRoutes.path(WORKSPACE + "/members").get(members::list).build())
                .and(MethodRoutes.path(WORKSPACE + "/members/{userId}").put(members::set).delete(members::remove).build())
                .and(MethodRoutes.path(WORKSPACE + "/notification-settings").get(notifications::get).put(notifications::put).build())
                .and(MethodRoutes.path(WORKSPACE + "/notification-settings/test").post(notifications::test).build())
                .and(MethodRoutes.path(WORKSPACE + "/dead-letters").get(deadLetters::list).build())
                .and(MethodRoutes.path(WORKSPACE + "/changes").get(changes::list).build())
                .and(MethodRoutes.path(WORKSPACE + "/dead-letters/{deadLetterId}/redrive").post(deadLetters::redrive).build())
                .and(MethodRoutes.path(WORKSPACE + "/kill-switch").get(state::killSwitch).build())
                .and(MethodRoutes.path(WORKSPACE + "/audit-log").get(auditLog::query).build())
                .and(MethodRoutes.path(WORKSPACE + "/audit-log/export").get(auditExport::export).build())
                .and(MethodRoutes.path(WORKSPACE + "/tools").get(tools::list).build())
                .and(MethodRoutes.path(WORKSPACE + "/tools/{tool}").get(tools::get).put(tools::put).delete(tools::delete).build())
                .and(MethodRoutes.path(WORKSPACE + "/tools/{tool}/webhook-secret").post(tools::rotateWebhookSecret).build())
                .and(MethodRoutes.path(WORKSPACE + "/approvals").get(approvals::list).build())
                .and(MethodRoutes.path(WORKSPACE + "/approvals/{approvalId}").get(approvals::get).build())
                .and(MethodRoutes.path(WORKSPACE + "/approvals/{approvalId}/approve").post(approvals::approve).build())
                .and(MethodRoutes.path(WORKSPACE + "/approvals/{approvalId}/reject").post(approvals::reject).build())
                .and(MethodRoutes.path(WORKSPACE + "/backtests").post(backtests::run).build())
                .and(MethodRoutes.path(WORKSPACE + "/policy-tests").post(policyTests::test).build());
    }

    /**
     * The audit log's evidence (docs/evidence.md): checkpoints, proofs, keys, the live check, the evidence export and a
     * payload's erasure.
     */
    @Bean
    RouterFunction<ServerResponse> evidenceRoutes(EvidenceAdminHandler evidence, EvidenceExportHandler export,
                                                  AuditPayloadErasureHandler erasure) {
        return MethodRoutes.path(WORKSPACE + "/evidence/checkpoints/latest").get(evidence::latestCheckpoint).build()
                .and(MethodRoutes.path(WORKSPACE + "/evidence/checkpoints/{treeSize}").get(evidence::checkpointsOfSize).build())
                .and(MethodRoutes.path(WORKSPACE + "/evidence/consistency-proof").get(evidence::consistencyProof).build())
                .and(MethodRoutes.path(WORKSPACE + "/evidence/witness/add-checkpoint").get(evidence::witnessSubmission).build())
                .and(MethodRoutes.path(WORKSPACE + "/evidence/public-keys").get(evidence::publicKeys).build())
                .and(MethodRoutes.path(WORKSPACE + "/evidence/verify").post(evidence::verify).build())
                .and(MethodRoutes.path(WORKSPACE + "/evidence/export").get(export::export).build())
                .and(MethodRoutes.path(WORKSPACE + "/audit-log/{auditLogId}/inclusion-proof").get(evidence::inclusionProof).build())
                .and(MethodRoutes.path(WORKSPACE + "/audit-log/{auditLogId}/erase-payload").post(erasure::erase).build());
    }

    /** The OAuth connect flows: an admin's start, and the upstreams' redirects back (the state is their credential). */
    @Bean
    RouterFunction<ServerResponse> oauthRoutes(OAuthStartHandler start, OAuthCallbackHandler callbacks) {
        RouterFunction<ServerResponse> routes = MethodRoutes.path(WORKSPACE + "/tools/{tool}/oauth/start").get(start::start).build();
        // each tool with OAuth, at its profile's callback path
        for (ToolProfile profile : ToolProfiles.where(ToolProfile::connectsByOAuth)) {
            routes = routes.and(MethodRoutes.path(profile.oauth().orElseThrow().callbackPath())
                    .get(request -> callbacks.callback(request, profile.tool())).build());
        }
        return routes;
    }
}
