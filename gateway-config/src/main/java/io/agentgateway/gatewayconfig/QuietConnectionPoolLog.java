package io.agentgateway.gatewayconfig;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Keeps Hikari's "connection marked as broken because of SQLSTATE(57P01)" out of the log of every service that uses
 * PostgreSQL: a WARN with the driver's whole stack for each pooled connection in use when the server goes away. Each
 * service already says an outage once, with its SQLSTATE ({@link UnreachableDatabase}: the ingress's 503s, the
 * executor's and the notifier's waits, the projector's write-failure log); Hikari's one line per idle connection it
 * cannot validate stays.
 *
 * <p>An environment post-processor rather than a property in each service's defaults: logging levels are applied
 * before a {@code @PropertySource} is read. Added last, so {@code LOGGING_LEVEL_COM_ZAXXER_HIKARI_POOL_PROXYCONNECTION}
 * or any other source still sets it.
 */
public final class QuietConnectionPoolLog implements EnvironmentPostProcessor {
    static final String LOGGER_LEVEL = "logging.level.com.zaxxer.hikari.pool.ProxyConnection";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.getPropertySources().contains(QuietConnectionPoolLog.class.getName())) {
            environment.getPropertySources().addLast(
                    new MapPropertySource(QuietConnectionPoolLog.class.getName(), Map.of(LOGGER_LEVEL, "ERROR")));
        }
    }
}
