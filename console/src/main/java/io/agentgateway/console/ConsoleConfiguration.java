package io.agentgateway.console;

import io.agentgateway.console.session.ConsoleSessions;
import io.agentgateway.console.session.ConsoleProperties;
import io.agentgateway.console.admin.ApiKeysPage;
import io.agentgateway.console.admin.MembersPage;
import io.agentgateway.console.admin.NotificationsPage;
import io.agentgateway.console.admin.PoliciesPage;
import io.agentgateway.console.admin.ToolsPage;
import io.agentgateway.console.admin.WorkspacesPage;
import io.agentgateway.console.approvals.ApprovalPageHandler;
import io.agentgateway.console.approvals.InboxHandler;
import io.agentgateway.console.audit.AuditExplorerHandler;
import io.agentgateway.console.audit.AuditRowHandler;
import io.agentgateway.console.killswitch.KillSwitchPageHandler;
import io.agentgateway.console.live.LiveHandler;
import io.agentgateway.console.web.ConsolePaths;
import io.agentgateway.httpedge.web.IngressMigrations;
import io.agentgateway.httpedge.web.MethodRoutes;
import io.agentgateway.schemas.ReviewVerdict;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.spring6.SpringTemplateEngine;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;

/**
 * The console, assembled into the ingress's application context ({@code IngressApplication} imports it): its pages at
 * {@code /}, its assets, its sessions in the ingress's schema (tables it migrates itself). Every state change it offers goes
 * through the admin API's application services ({@code Approvals}, {@code KillSwitch}, {@code PolicyAdmin}, ...), that is
 * through the decision stream in log order.
 */
@Configuration(proxyBeanMethods = false)
@ComponentScan(basePackageClasses = ConsoleConfiguration.class)
@EnableConfigurationProperties(ConsoleProperties.class)
public class ConsoleConfiguration {

    /** Templates from the console's jar only; HTML mode escapes every {@code th:text}. */
    @Bean
    public TemplateEngine consoleTemplateEngine() {
        ClassLoaderTemplateResolver resolver = new ClassLoaderTemplateResolver(ConsoleConfiguration.class.getClassLoader());
        resolver.setPrefix("io/agentgateway/console/templates/");
        resolver.setSuffix(".html");
        resolver.setTemplateMode(TemplateMode.HTML);
        resolver.setCharacterEncoding("UTF-8");
        resolver.setCacheable(true);
        SpringTemplateEngine engine = new SpringTemplateEngine();
        engine.setTemplateResolver(resolver);
        // SpEL compiled once warm (falls back to interpreting any expression it cannot compile): a third of an inbox
        // page's CPU was interpreting expressions
        engine.setEnableSpringELCompiler(true);
        // @{/...} links are served at the root (the console has no context path); the standard builder would want a
        // servlet-style web context to ask for one. Path variables are still URL-encoded by it.
        engine.setLinkBuilder(new org.thymeleaf.linkbuilder.StandardLinkBuilder() {
            @Override
            protected String computeContextPath(org.thymeleaf.context.IExpressionContext context, String base,
                                                Map<String, Object> parameters) {
                return "";
            }
        });
        return engine;
    }

    /**
     * The console's routes are tried only for its paths: an API request (every agent's call) then pays one prefix
     * check for them, not a match against each of the console's pages.
     */
    private static final RequestPredicate CONSOLE_PATHS = request -> ConsolePaths.isConsole(request.path());
    private static final String WORKSPACE = "/workspaces/{workspaceId}";

    /** The admin half: policies, tools, API keys, members, notifications, and the operators' workspaces. */
    @Bean
    RouterFunction<ServerResponse> consoleAdminRoutes(PoliciesPage policies, ToolsPage tools, ApiKeysPage keys,
                                                      MembersPage members, NotificationsPage notifications,
                                                      WorkspacesPage workspaces, AuditRowHandler auditRow) {
        return RouterFunctions.nest(CONSOLE_PATHS, policies(policies).and(tools(tools)).and(apiKeys(keys))
                .and(members(members)).and(notifications(notifications)).and(workspaces(workspaces))
                .and(auditRow(auditRow)));
    }

    @Bean
    RouterFunction<ServerResponse> consoleRoutes(SignInHandler signIn, InboxHandler inbox, ApprovalPageHandler approvals,
                                                 KillSwitchPageHandler killSwitch, AuditExplorerHandler audit, LiveHandler live) {
        return RouterFunctions.nest(CONSOLE_PATHS, inbox(inbox)
                .and(signIn(signIn))
                .and(approvals(approvals))
                .and(killSwitch(killSwitch))
                .and(audit(audit))
                .and(MethodRoutes.path("/events").get(live::events).build())
                .and(RouterFunctions.resources("/static/**", new ClassPathResource("io/agentgateway/console/static/")))
                .and(RouterFunctions.resources("/webjars/**", new ClassPathResource("META-INF/resources/webjars/"))));
    }

    // Each screen's routes, which its page's test binds alone.

    public static RouterFunction<ServerResponse> inbox(InboxHandler inbox) {
        return MethodRoutes.path("/").get(inbox::page).build()
                .and(MethodRoutes.path("/inbox/items").get(inbox::items).build());
    }

    static RouterFunction<ServerResponse> signIn(SignInHandler signIn) {
        return MethodRoutes.path("/signin").get(signIn::page).build()
                .and(MethodRoutes.path("/signin/start").get(signIn::start).build())
                .and(MethodRoutes.path(SignInHandler.CALLBACK).get(signIn::callback).build())
                .and(MethodRoutes.path(SignInLinks.PATH).get(signIn::link).build())
                .and(MethodRoutes.path("/signout").post(signIn::signOut).build());
    }

    public static RouterFunction<ServerResponse> approvals(ApprovalPageHandler approvals) {
        String approval = "/approvals/{workspaceId}/{approvalId}";
        return MethodRoutes.path(approval).get(approvals::page).build()
                .and(MethodRoutes.path(approval + "/approve").post(r -> approvals.review(r, ReviewVerdict.APPROVE)).build())
                .and(MethodRoutes.path(approval + "/reject").post(r -> approvals.review(r, ReviewVerdict.REJECT)).build());
    }

    public static RouterFunction<ServerResponse> killSwitch(KillSwitchPageHandler killSwitch) {
        return MethodRoutes.path("/kill-switch").get(killSwitch::first).build()
                .and(MethodRoutes.path(WORKSPACE + "/kill-switch").get(killSwitch::page).post(killSwitch::change).build());
    }

    public static RouterFunction<ServerResponse> audit(AuditExplorerHandler audit) {
        return MethodRoutes.path("/audit").get(audit::page).build()
                .and(MethodRoutes.path("/audit/rows").get(audit::rows).build())
                .and(MethodRoutes.path("/audit/export").get(audit::export).build());
    }

    public static RouterFunction<ServerResponse> auditRow(AuditRowHandler auditRow) {
        return MethodRoutes.path("/audit/{workspaceId}/{auditLogId}").get(auditRow::page).build();
    }

    public static RouterFunction<ServerResponse> policies(PoliciesPage policies) {
        return MethodRoutes.path("/policies").get(policies::first).build()
                .and(MethodRoutes.path(WORKSPACE + "/policies").get(policies::page).build())
                .and(MethodRoutes.path(WORKSPACE + "/policies/new").get(policies::create).build())
                .and(MethodRoutes.path(WORKSPACE + "/policies/editor").post(policies::submit).build())
                .and(MethodRoutes.path(WORKSPACE + "/policies/{policyId}/edit").get(policies::edit).build())
                .and(MethodRoutes.path(WORKSPACE + "/policies/{policyId}/move").post(policies::move).build())
                .and(MethodRoutes.path(WORKSPACE + "/policies/{policyId}/delete").post(policies::delete).build())
                .and(MethodRoutes.path(WORKSPACE + "/defaults").post(policies::saveDefaults).build());
    }

    public static RouterFunction<ServerResponse> tools(ToolsPage tools) {
        return MethodRoutes.path("/tools").get(tools::first).build()
                .and(MethodRoutes.path(WORKSPACE + "/tools").get(tools::page).build())
                .and(MethodRoutes.path(WORKSPACE + "/tools/{tool}").post(tools::save).build())
                .and(MethodRoutes.path(WORKSPACE + "/tools/{tool}/disconnect").post(tools::disconnect).build())
                .and(MethodRoutes.path(WORKSPACE + "/tools/{tool}/webhook-secret").post(tools::rotate).build())
                .and(MethodRoutes.path(WORKSPACE + "/tools/{tool}/connect").get(tools::connect).build());
    }

    public static RouterFunction<ServerResponse> apiKeys(ApiKeysPage keys) {
        return MethodRoutes.path("/api-keys").get(keys::first).build()
                .and(MethodRoutes.path(WORKSPACE + "/api-keys").get(keys::page).post(keys::issue).build())
                .and(MethodRoutes.path(WORKSPACE + "/api-keys/{keyId}/revoke").post(keys::revoke).build());
    }

    public static RouterFunction<ServerResponse> members(MembersPage members) {
        return MethodRoutes.path("/members").get(members::first).build()
                .and(MethodRoutes.path(WORKSPACE + "/members").get(members::page).post(members::invite).build())
                .and(MethodRoutes.path(WORKSPACE + "/members/role").post(members::role).build())
                .and(MethodRoutes.path(WORKSPACE + "/members/remove").post(members::remove).build());
    }

    public static RouterFunction<ServerResponse> notifications(NotificationsPage notifications) {
        return MethodRoutes.path("/notifications").get(notifications::first).build()
                .and(MethodRoutes.path(WORKSPACE + "/notifications").get(notifications::page).post(notifications::save).build())
                .and(MethodRoutes.path(WORKSPACE + "/notifications/test").post(notifications::test).build())
                .and(MethodRoutes.path(WORKSPACE + "/notifications/dead-letters/{deadLetterId}/redrive")
                        .post(notifications::redrive).build());
    }

    public static RouterFunction<ServerResponse> workspaces(WorkspacesPage workspaces) {
        return MethodRoutes.path("/workspaces").get(workspaces::page).post(workspaces::create).build();
    }

    /**
     * The console's tables in the ingress's schema ({@code IngressTables}): sessions, sign-in flows and one-time links,
     * from {@code db/ingress/console}; version 2 of the history the ingress's modules shared before each migrated its own.
     */
    @Bean
    IngressMigrations consoleMigrations() {
        return IngressMigrations.of("console").adopting("2");
    }

    /** Spent links, finished flows and sessions past their timeouts are deleted every few minutes. */
    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService consolePurge(ConsoleSessions sessions) {
        ScheduledExecutorService purge = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "console-purge");
            t.setDaemon(true);
            return t;
        });
        long every = Duration.ofMinutes(5).toSeconds();
        purge.scheduleWithFixedDelay(() -> {
            try {
                sessions.purge();
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(ConsoleConfiguration.class).debug("console purge failed: {}", e.toString());
            }
        }, every, every, TimeUnit.SECONDS);
        return purge;
    }
}
