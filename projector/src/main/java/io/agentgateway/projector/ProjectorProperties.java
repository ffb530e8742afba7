package io.agentgateway.projector;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The projector's own settings ({@code gateway.projector.*}).
 *
 * @param groupId          consumer group; every projector replica writing one database shares it
 * @param concurrency      consumer threads (at most the events topic's partition count is useful)
 * @param fetchMaxWait     how long the broker may hold a fetch to fill it; small, because an audit row
 *                         must reach PostgreSQL within a second
 * @param maxPollRecords   upper bound of one batch, so one transaction stays short
 * @param retryMaxInterval longest pause between retries of a batch the database could not take
 *                         (PostgreSQL down): the batch is retried until it succeeds, never dropped
 */
@ConfigurationProperties("gateway.projector")
public record ProjectorProperties(
        @DefaultValue("gateway-projector") String groupId,
        @DefaultValue("1") int concurrency,
        @DefaultValue("25ms") Duration fetchMaxWait,
        @DefaultValue("500") int maxPollRecords,
        @DefaultValue("5s") Duration retryMaxInterval) {}
