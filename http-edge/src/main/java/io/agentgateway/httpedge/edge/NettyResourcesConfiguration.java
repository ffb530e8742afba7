package io.agentgateway.httpedge.edge;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * Gives this context its own Reactor Netty event loops. Boot's default uses the JVM-global ones and
 * disposes them when the context closes, which would take down the HTTP server of every other
 * context in the same JVM (the launcher runs all modules in one JVM).
 */
@Configuration(proxyBeanMethods = false)
class NettyResourcesConfiguration {

    @Bean
    ReactorResourceFactory reactorResourceFactory() {
        ReactorResourceFactory factory = new ReactorResourceFactory();
        factory.setUseGlobalResources(false);
        return factory;
    }
}
