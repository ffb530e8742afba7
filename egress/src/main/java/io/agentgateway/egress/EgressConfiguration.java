package io.agentgateway.egress;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import io.agentgateway.gatewaytracing.GatewayTracing;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The egress policy of a module that connects out (the ingress, the notifier): imported by its
 * application class. The gateway's own public base URL ({@code gateway.public-base-url},
 * {@code gateway.notifier.public-base-url}) counts as one of its own listeners.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(EgressProperties.class)
public class EgressConfiguration {
    /** One id per process unless configured: the hop marker says "sent by a gateway", whichever. */
    private static final String PROCESS_HOP_ID = "gw-" + UUID.randomUUID();

    @Bean
    EgressPolicy egressPolicy(EgressProperties properties, Environment environment) {
        List<String> ownUrls = new ArrayList<>();
        for (String key : List.of("gateway.public-base-url", "gateway.notifier.public-base-url")) {
            String url = environment.getProperty(key);
            if (url != null && !url.isBlank()) {
                ownUrls.add(url);
            }
        }
        return new EgressPolicy(properties.allow(), OwnListeners.PROCESS, ownUrls);
    }

    @Bean
    EgressClients egressClients(EgressPolicy policy, EgressProperties properties, ObjectProvider<GatewayTracing> tracing) {
        String hopId = properties.hopId() == null || properties.hopId().isBlank() ? PROCESS_HOP_ID : properties.hopId().strip();
        return new EgressClients(policy, new EgressResolverGroup(policy, NameLookup.of(properties.hosts())), hopId,
                tracing.getIfAvailable(GatewayTracing::disabled));
    }

    @Bean
    static OwnListenerRecorder egressOwnListenerRecorder() {
        return new OwnListenerRecorder();
    }
}
