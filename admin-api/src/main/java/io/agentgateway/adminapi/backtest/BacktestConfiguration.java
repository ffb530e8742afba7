package io.agentgateway.adminapi.backtest;

import io.agentgateway.backtest.Backtester;
import io.agentgateway.backtest.RecordedCommands;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The readers of the recorded log, with the standard {@code spring.kafka.*} connection settings and the
 * {@code gateway.backtest.*} limits: the back-tester (which decides conditions under the stream's limits), and the
 * reader of one recorded command that the policy test replays.
 */
@Configuration(proxyBeanMethods = false)
class BacktestConfiguration {

    @Bean
    Backtester backtester(KafkaProperties kafka, BacktestProperties properties, ConditionEnvironment conditions) {
        return new Backtester(kafka.buildConsumerProperties(),
                new Backtester.Limits(properties.connectTimeout(), properties.timeout(), properties.examples()),
                conditions.limits());
    }

    @Bean
    RecordedCommands recordedCommands(KafkaProperties kafka, BacktestProperties backtest) {
        return new RecordedCommands(kafka.buildConsumerProperties(), backtest.connectTimeout(), backtest.timeout());
    }
}
