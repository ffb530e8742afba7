package io.agentgateway.gatewayclient;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** {@code /actuator/health} component {@code commandGateway}: UP only once replies can be received. */
public class CommandGatewayHealthIndicator implements HealthIndicator {
    private final CommandGateway gateway;

    public CommandGatewayHealthIndicator(CommandGateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public Health health() {
        Health.Builder health = gateway.isReady() ? Health.up() : Health.down();
        return health.withDetail("replyPartition", gateway.replyPartition())
                .withDetail("pendingCommands", gateway.pendingCount())
                .withDetail("state", gateway.state())
                .build();
    }
}
