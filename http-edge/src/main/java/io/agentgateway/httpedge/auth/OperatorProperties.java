package io.agentgateway.httpedge.auth;

import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code gateway.auth.operators}: the user ids ({@code sub} of a verified user JWT) of the gateway's
 * operators, who create and list workspaces. Empty by default: nobody can create a workspace until
 * one is named ({@code GATEWAY_AUTH_OPERATORS=<sub>,...}, the same on every ingress replica; see
 * docs/operating-a-cluster.md, "Bootstrap"). An operator is no member of any workspace by being one.
 */
@ConfigurationProperties("gateway.auth")
public record OperatorProperties(List<String> operators) {

    public OperatorProperties {
        operators = operators == null ? List.of()
                : operators.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    public Set<String> operatorIds() {
        return Set.copyOf(operators);
    }
}
