package io.agentgateway.agentapi.evaluate;

import io.micrometer.observation.ObservationPredicate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;

/**
 * Leaves evaluate-action out of the generic {@code http.server.requests} observation: the hot path
 * has its own timer ({@code gateway.ingress.evaluate}), and the generic one cost about a tenth of the
 * ingress's CPU per request in profiling. Every other endpoint keeps it.
 */
@Configuration(proxyBeanMethods = false)
class EvaluateActionObservations {

    @Bean
    ObservationPredicate skipGenericObservationOfEvaluateAction() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext server
                && EvaluateActionHandler.PATH.equals(server.getCarrier().getPath().value()));
    }
}
