package io.agentgateway.adminapi;

import io.agentgateway.httpedge.web.IngressMigrations;
import io.agentgateway.httpedge.web.IngressTables;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The admin API's tables in the ingress's schema ({@link IngressTables}): {@code oauth_state_uses} (an OAuth state
 * spent once) and {@code notification_redrives} (a dead letter sent again once), from {@code db/ingress/admin-api}.
 * They were versions 1 and 4 of the history the ingress's modules shared before each migrated its own.
 */
@Configuration(proxyBeanMethods = false)
class AdminApiTables {

    @Bean
    IngressMigrations adminApiMigrations() {
        return IngressMigrations.of("admin-api").adopting("1", "4");
    }
}
