package io.agentgateway.projector;

import io.agentgateway.schemas.kafka.KafkaClientTimeouts;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * {@link OperatorGauges} from the projector, which reaches both the broker and the read model; a meter binder, so Boot
 * (or, in the embedded default, the shared registry) binds it.
 */
@Configuration(proxyBeanMethods = false)
class OperatorGaugesConfiguration {

    @Bean(destroyMethod = "close")
    OperatorGauges operatorGauges(KafkaProperties kafka, JdbcClient jdbc,
                                  @Value("${gateway.projector.operator-gauges-interval:15s}") Duration interval) {
        // what every client of the gateway waits on a broker (KafkaClientTimeouts), then the operator's settings
        Map<String, Object> admin = new HashMap<>(KafkaClientTimeouts.admin());
        admin.putAll(kafka.buildAdminProperties());
        return new OperatorGauges(admin, jdbc, interval);
    }
}
