package io.agentgateway.projector;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The projector's own settings ({@code gateway.projector.*}).
 *
 * @param groupId          consumer group; every projector replica writing one database shares it
 * @param concurrency      consumer threads (at most the events topic's partition count is useful)
 * @param fetchMaxWait     how long the broker may hold a fetch to fill it up to {@code fetchMinBytes}:
 *                         well under the second within which an audit row must reach PostgreSQL, and long
 *                         enough that a busy gateway's events arrive in batches (one transaction and one
 *                         fetch per batch, not per event)
 * @param fetchMinBytes    how much a fetch waits for (at most {@code fetchMaxWait}) before it returns
 * @param maxPollRecords   upper bound of one batch, so one transaction stays short
 * @param retryMaxInterval longest pause between retries of a batch the database could not take
 *                         (PostgreSQL down): the batch is retried until it succeeds, never dropped
 */
@ConfigurationProperties("gateway.projector")
public record ProjectorProperties(
        @DefaultValue("gateway-projector") String groupId,
        @DefaultValue("1") int concurrency,
        @DefaultValue("100ms") Duration fetchMaxWait,
        @DefaultValue("65536") int fetchMinBytes,
        @DefaultValue("500") int maxPollRecords,
        @DefaultValue("5s") Duration retryMaxInterval,
        String instanceId,
        @DefaultValue("6s") Duration sessionTimeout) {}
