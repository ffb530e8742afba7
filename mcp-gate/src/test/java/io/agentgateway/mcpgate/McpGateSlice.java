package io.agentgateway.mcpgate;

import io.agentgateway.actiongate.callview.CallViewProperties;
import io.agentgateway.actiongate.callview.CallViews;
import io.agentgateway.actiongate.callview.ConditionArguments;
import io.agentgateway.actiongate.callview.ConditionInputProperties;
import io.agentgateway.actiongate.connection.ConnectionSecrets;
import io.agentgateway.actiongate.heldcall.HeldCallSeals;
import io.agentgateway.egress.EgressClients;
import io.agentgateway.gatewayclient.config.IngressProperties;
import io.agentgateway.httpedge.limits.FairUseProperties;
import io.agentgateway.httpedge.limits.RequestRateLimits;
import io.agentgateway.httpedge.secret.ConfiguredSecretBox;
import io.agentgateway.httpedge.secret.SecretsProperties;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.IngressTables;
import io.agentgateway.mcpgate.config.McpGateTables;
import io.agentgateway.httpedge.web.JsonErrorWebExceptionHandler;
import io.agentgateway.httpedge.web.MethodRoutes;
import io.agentgateway.mcpgate.config.McpGateProperties;
import io.agentgateway.mcpgate.config.McpTaskProperties;
import io.agentgateway.mcpgate.transport.McpGateHandler;
import io.agentgateway.mcpgate.transport.McpSseTransport;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The MCP gate as the ingress assembles it, alone, on a real HTTP server ({@link Server}): every class of the module,
 * its route as the ingress registers it ({@code IngressRoutes}), and the shared pieces of the HTTP edge and the action gate that need no broker (the error
 * body, correlation ids, rate limits, sealing, call views, secrets, the egress policy). What stands at the module's
 * boundary to the decision stream ({@code ActionGate}, {@code ConnectionAccess}, {@code ApprovalWithdrawals}, the
 * events reader) is stubbed by each test ({@link McpGateSliceTest}); the read model is a real PostgreSQL with the
 * projector's schema, and the upstream a real MCP server ({@link McpTestUpstream}).
 */
@Configuration(proxyBeanMethods = false)
@EnableWebFlux
@ComponentScan(basePackages = "io.agentgateway.mcpgate", excludeFilters = @ComponentScan.Filter(Configuration.class))
@EnableConfigurationProperties({McpGateProperties.class, McpTaskProperties.class, IngressProperties.class,
        SecretsProperties.class, FairUseProperties.class, CallViewProperties.class, ConditionInputProperties.class})
@Import({RequestRateLimits.class, JsonErrorWebExceptionHandler.class, CorrelationIds.class, IngressTables.class, McpGateTables.class,
        HeldCallSeals.class, CallViews.class, ConditionArguments.class, ConnectionSecrets.class, ConfiguredSecretBox.class})
public class McpGateSlice {

    @Bean
    RouterFunction<ServerResponse> mcpGateRoutes(McpGateHandler gate, McpSseTransport sse) {
        return MethodRoutes.path(McpGateHandler.PATH)
                .post(request -> McpSseTransport.isSessionPost(request) ? sse.post(request) : gate.post(request))
                .get(sse::get).build();
    }

    /** The module's HTTP handling on a real Reactor Netty server, as the ingress serves it (loopback, any free port). */
    @Bean
    Server server() {
        return new Server();
    }

    /** Serves the context's web handler (routes, filters, the error handler) once the context is refreshed. */
    public static final class Server implements SmartLifecycle, ApplicationContextAware {
        private ApplicationContext context;
        private volatile DisposableServer http;

        @Override
        public void setApplicationContext(ApplicationContext context) {
            this.context = context;
        }

        public String baseUrl() {
            return "http://127.0.0.1:" + http.port();
        }

        @Override
        public void start() {
            HttpHandler handler = WebHttpHandlerBuilder.applicationContext(context).build();
            http = HttpServer.create().host("127.0.0.1").port(0).handle(new ReactorHttpHandlerAdapter(handler))
                    .bindNow(Duration.ofSeconds(10));
        }

        @Override
        public void stop() {
            http.disposeNow(Duration.ofSeconds(5));
            http = null;
        }

        @Override
        public boolean isRunning() {
            return http != null;
        }
    }

    @Bean
    EgressClients egressClients() {
        return EgressClients.of(List.of("127.0.0.0/8"), List.of(), "gw-test");
    }

    @Bean
    ReactorResourceFactory reactorResourceFactory() {
        return new ReactorResourceFactory();
    }

    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    @Bean
    DataSource dataSource() {
        return ReadModelDatabase.create();
    }

    @Bean
    JdbcClient jdbcClient(DataSource dataSource) {
        return JdbcClient.create(dataSource);
    }
}
