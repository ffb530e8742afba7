package io.agentgateway.adminapi;

import io.agentgateway.backtest.Backtester;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The back-tester reads the commands and events topics with the standard {@code spring.kafka.*} connection settings,
 * and decides conditions under the stream's limits.
 */
@Configuration(proxyBeanMethods = false)
class BacktestConfiguration {

    @Bean
    Backtester backtester(KafkaProperties kafka, BacktestProperties properties, ConditionProperties conditions) {
        return new Backtester(kafka.buildConsumerProperties(),
                new Backtester.Limits(properties.connectTimeout(), properties.timeout(), properties.examples()),
                conditions.limits());
    }
}
