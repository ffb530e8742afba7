package io.agentgateway.adminapi;

import io.agentgateway.backtest.RecordedCommands;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The policy conditions of the admin API: the decision core's environment under the stream's limits, and the reader
 * of recorded commands the policy test replays.
 */
@Configuration(proxyBeanMethods = false)
class PolicyConditionsConfiguration {

    @Bean
    ConditionEnvironment policyConditions(ConditionProperties properties) {
        return ConditionEnvironment.of(properties.limits());
    }

    /** A recorded evaluation's command, read from the commands topic for the policy test ({@code gateway.backtest.*} limits). */
    @Bean
    RecordedCommands recordedCommands(KafkaProperties kafka, BacktestProperties backtest) {
        return new RecordedCommands(kafka.buildConsumerProperties(), backtest.connectTimeout(), backtest.timeout());
    }
}
