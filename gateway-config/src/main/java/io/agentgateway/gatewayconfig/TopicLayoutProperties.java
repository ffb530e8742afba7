package io.agentgateway.gatewayconfig;

import io.agentgateway.schemas.kafka.TopicProvisioner;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.topics.*}: the topic layout every service creates at start-up if the topics are missing. One
 * class for all of them, so that the services of one deployment cannot disagree on a default.
 */
@ConfigurationProperties("gateway.topics")
public record TopicLayoutProperties(
        @DefaultValue("6") int commandPartitions,
        @DefaultValue("4") int replyPartitions,
        @DefaultValue("0") short replicationFactor,
        @DefaultValue("0") int minInsyncReplicas) {

    /** Replication 0 (the default): derived from the cluster by {@link TopicProvisioner.Replication#of}. */
    public TopicProvisioner.Layout layout() {
        return new TopicProvisioner.Layout(commandPartitions, replyPartitions, replicationFactor, minInsyncReplicas);
    }
}
