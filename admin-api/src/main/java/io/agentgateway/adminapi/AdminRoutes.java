package io.agentgateway.adminapi;

import io.agentgateway.adminapi.approvals.ApprovalAdminHandler;
import io.agentgateway.adminapi.audit.AuditExportHandler;
import io.agentgateway.adminapi.audit.AuditLogHandler;
import io.agentgateway.adminapi.audit.AuditPayloadErasureHandler;
import io.agentgateway.adminapi.audit.ChangeHistoryHandler;
import io.agentgateway.adminapi.audit.EvidenceAdminHandler;
import io.agentgateway.adminapi.audit.EvidenceExportHandler;
import io.agentgateway.adminapi.backtest.BacktestHandler;
import io.agentgateway.adminapi.keys.ApiKeyAdminHandler;
import io.agentgateway.adminapi.killswitch.KillSwitchHandler;
import io.agentgateway.adminapi.members.MemberAdminHandler;
import io.agentgateway.adminapi.notifications.DeadLetterAdminHandler;
import io.agentgateway.adminapi.notifications.NotificationSettingsHandler;
import io.agentgateway.adminapi.oauth.OAuthCallbackHandler;
import io.agentgateway.adminapi.oauth.OAuthStartHandler;
import io.agentgateway.adminapi.policies.DefaultsAdminHandler;
import io.agentgateway.adminapi.policies.PolicyAdminHandler;
import io.agentgateway.adminapi.policies.PolicyTestHandler;
import io.agentgateway.adminapi.tools.ToolConnectionAdminHandler;
import io.agentgateway.adminapi.workspaces.WorkspaceAdminHandler;
import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.httpedge.web.MethodRoutes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Every path of the admin API, by resource: {@code /admin/v1/...}, the kill switch ({@code /functions/v1/kill-switch},
 * spec 4.2) and the OAuth callbacks. Each resource's routes are a method of their own, which its handler's test binds
 * alone; the beans put them into the ingress's route table.
 */
@Configuration(proxyBeanMethods = false)
public class AdminRoutes {
    public static final String WORKSPACES = "/admin/v1/workspaces";
    public static final String WORKSPACE = WORKSPACES + "/{workspaceId}";

    @Bean
    RouterFunction<ServerResponse> adminApiRoutes(WorkspaceAdminHandler workspaces, PolicyAdminHandler policies,
                                                  DefaultsAdminHandler defaults, PolicyTestHandler policyTests,
                                                  BacktestHandler backtests, ApiKeyAdminHandler keys, MemberAdminHandler members,
                                                  NotificationSettingsHandler notifications, DeadLetterAdminHandler deadLetters,
                                                  KillSwitchHandler killSwitch, AuditLogHandler auditLog,
                                                  AuditExportHandler auditExport, ChangeHistoryHandler changes,
                                                  ToolConnectionAdminHandler tools, ApprovalAdminHandler approvals) {
        return workspaces(workspaces)
                .and(policies(policies, defaults, policyTests))
                .and(backtests(backtests))
                .and(keys(keys))
                .and(members(members))
                .and(notifications(notifications, deadLetters))
                .and(killSwitch(killSwitch))
                .and(auditLog(auditLog, auditExport, changes))
                .and(tools(tools))
                .and(approvals(approvals));
    }

    /**
     * The audit log's evidence (docs/evidence.md): checkpoints, proofs, keys, the live check, the evidence export and a
     * payload's erasure.
     */
    /**
     * The audit log's evidence (docs/evidence.md): checkpoints, proofs, keys, the live check, the evidence export and a
     * payload's erasure.
     */
    @Bean
    RouterFunction<ServerResponse> evidenceRoutes(EvidenceAdminHandler evidence, EvidenceExportHandler export,
                                                  AuditPayloadErasureHandler erasure) {
        return evidence(evidence, export, erasure);
    }

    /** The OAuth connect flows: an admin's start, and the upstreams' redirects back (the state is their credential). */
    @Bean
    RouterFunction<ServerResponse> oauthRoutes(OAuthStartHandler start, OAuthCallbackHandler callbacks) {
        return oauth(start, callbacks);
    }

    public static RouterFunction<ServerResponse> evidence(EvidenceAdminHandler evidence, EvidenceExportHandler export,
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

    public static RouterFunction<ServerResponse> oauth(OAuthStartHandler start, OAuthCallbackHandler callbacks) {
        RouterFunction<ServerResponse> routes = MethodRoutes.path(WORKSPACE + "/tools/{tool}/oauth/start").get(start::start).build();
        // each tool with OAuth, at its profile's callback path
        for (ToolProfile profile : ToolProfiles.where(ToolProfile::connectsByOAuth)) {
            routes = routes.and(MethodRoutes.path(profile.oauth().orElseThrow().callbackPath())
                    .get(request -> callbacks.callback(request, profile.tool())).build());
        }
        return routes;
    }

    public static RouterFunction<ServerResponse> workspaces(WorkspaceAdminHandler workspaces) {
        return MethodRoutes.path(WORKSPACES).get(workspaces::list).post(workspaces::create).build();
    }

    public static RouterFunction<ServerResponse> policies(PolicyAdminHandler policies, DefaultsAdminHandler defaults,
                                                          PolicyTestHandler policyTests) {
        return MethodRoutes.path(WORKSPACE + "/policies").get(policies::list).post(policies::create).build()
                .and(MethodRoutes.path(WORKSPACE + "/policies/{policyId}").put(policies::replace).delete(policies::delete).build())
                .and(MethodRoutes.path(WORKSPACE + "/defaults").get(defaults::get).put(defaults::put).build())
                .and(MethodRoutes.path(WORKSPACE + "/policy-tests").post(policyTests::test).build());
    }

    public static RouterFunction<ServerResponse> backtests(BacktestHandler backtests) {
        return MethodRoutes.path(WORKSPACE + "/backtests").post(backtests::run).build();
    }

    public static RouterFunction<ServerResponse> keys(ApiKeyAdminHandler keys) {
        return MethodRoutes.path(WORKSPACE + "/api-keys").get(keys::list).post(keys::issue).build()
                .and(MethodRoutes.path(WORKSPACE + "/api-keys/{keyId}").delete(keys::revoke).build());
    }

    public static RouterFunction<ServerResponse> members(MemberAdminHandler members) {
        return MethodRoutes.path(WORKSPACE + "/members").get(members::list).build()
                .and(MethodRoutes.path(WORKSPACE + "/members/{userId}").put(members::set).delete(members::remove).build());
    }

    public static RouterFunction<ServerResponse> notifications(NotificationSettingsHandler notifications,
                                                               DeadLetterAdminHandler deadLetters) {
        return MethodRoutes.path(WORKSPACE + "/notification-settings").get(notifications::get).put(notifications::put).build()
                .and(MethodRoutes.path(WORKSPACE + "/notification-settings/test").post(notifications::test).build())
                .and(MethodRoutes.path(WORKSPACE + "/dead-letters").get(deadLetters::list).build())
                .and(MethodRoutes.path(WORKSPACE + "/dead-letters/{deadLetterId}/redrive").post(deadLetters::redrive).build());
    }

    public static RouterFunction<ServerResponse> killSwitch(KillSwitchHandler killSwitch) {
        return MethodRoutes.path("/functions/v1/kill-switch").post(killSwitch::killSwitch).build()
                .and(MethodRoutes.path(WORKSPACE + "/kill-switch").get(killSwitch::state).build());
    }

    public static RouterFunction<ServerResponse> auditLog(AuditLogHandler auditLog, AuditExportHandler auditExport,
                                                          ChangeHistoryHandler changes) {
        return MethodRoutes.path(WORKSPACE + "/audit-log").get(auditLog::query).build()
                .and(MethodRoutes.path(WORKSPACE + "/audit-log/export").get(auditExport::export).build())
                .and(MethodRoutes.path(WORKSPACE + "/changes").get(changes::list).build());
    }

    public static RouterFunction<ServerResponse> tools(ToolConnectionAdminHandler tools) {
        return MethodRoutes.path(WORKSPACE + "/tools").get(tools::list).build()
                .and(MethodRoutes.path(WORKSPACE + "/tools/{tool}").get(tools::get).put(tools::put).delete(tools::delete).build())
                .and(MethodRoutes.path(WORKSPACE + "/tools/{tool}/webhook-secret").post(tools::rotateWebhookSecret).build());
    }

    public static RouterFunction<ServerResponse> approvals(ApprovalAdminHandler approvals) {
        return MethodRoutes.path(WORKSPACE + "/approvals").get(approvals::list).build()
                .and(MethodRoutes.path(WORKSPACE + "/approvals/{approvalId}").get(approvals::get).build())
                .and(MethodRoutes.path(WORKSPACE + "/approvals/{approvalId}/approve").post(approvals::approve).build())
                .and(MethodRoutes.path(WORKSPACE + "/approvals/{approvalId}/reject").post(approvals::reject).build());
    }
}
