package io.agentgateway.adminapi.policies;

import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The policy conditions of the admin API: the decision core's environment under the stream's limits, which the policy
 * checks, the policy test and the back-test share.
 */
@Configuration(proxyBeanMethods = false)
class PolicyConditionsConfiguration {

    @Bean
    ConditionEnvironment policyConditions(ConditionProperties properties) {
        return ConditionEnvironment.of(properties.limits());
    }
}
