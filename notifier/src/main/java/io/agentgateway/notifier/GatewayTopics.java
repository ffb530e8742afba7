package io.agentgateway.notifier;

import io.agentgateway.schemas.kafka.TopicProvisioner;

/**
 * Proof that the gateway's topics exist: created (if missing) when this bean is made, so the
 * listener container, which depends on it, never subscribes to a topic that is not there yet.
 */
public final class GatewayTopics {

    private GatewayTopics() {}

    public static GatewayTopics ensure(String bootstrapServers, TopicProvisioner.Layout layout) {
        TopicProvisioner.ensureTopics(bootstrapServers, layout);
        return new GatewayTopics();
    }
}
