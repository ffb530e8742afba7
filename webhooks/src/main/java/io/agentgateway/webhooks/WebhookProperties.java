package io.agentgateway.webhooks;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.webhooks.*}; {@code gateway.webhooks.candidate-index-ttl}, which the admin API's changes wait on too, is
 * {@code connection.CandidateIndexProperties}.
 *
 * @param maxBodyBytes    webhook bodies above this size are refused with 413 before anything else is
 *                        looked at (512 KiB by default: the command carrying the payload must stay well
 *                        under Kafka's 1 MB record limit; the code host's usual events are far smaller)
 * @param maxAge          issue tracker: a {@code webhookTimestamp} older than this is refused (spec 8: 5 minutes)
 * @param maxFutureSkew   issue tracker: a {@code webhookTimestamp} further ahead than this is refused
 *                        (clock skew allowance; a far-future stamp would otherwise stay "fresh" for ever)
 * @param unmatchedExcerptBytes a delivery that matches no workspace is recorded (spec 6 rule 3) with only this
 *                        many bytes of its compact payload (on the commands topic and in {@code webhook_events})
 * @param unmatchedRate   unmatched deliveries recorded per second per source address (beyond it they are answered
 *                        as always and only counted); {@code 0}: no per-address limit
 * @param unmatchedBurst  the per-address burst
 * @param unmatchedGlobalRate unmatched deliveries recorded per second by this instance, all sources together;
 *                        {@code 0}: no global limit
 * @param unmatchedGlobalBurst the global burst
 */
@ConfigurationProperties("gateway.webhooks")
public record WebhookProperties(
        @DefaultValue("524288") int maxBodyBytes,
        @DefaultValue("PT5M") Duration maxAge,
        @DefaultValue("PT1M") Duration maxFutureSkew,
        @DefaultValue("4096") int unmatchedExcerptBytes,
        @DefaultValue("1") int unmatchedRate,
        @DefaultValue("10") int unmatchedBurst,
        @DefaultValue("5") int unmatchedGlobalRate,
        @DefaultValue("50") int unmatchedGlobalBurst) {

    public WebhookProperties {
        if (maxBodyBytes <= 0) {
            throw new IllegalArgumentException("gateway.webhooks.max-body-bytes must be positive");
        }
        if (maxAge.isNegative() || maxAge.isZero() || maxFutureSkew.isNegative()) {
            throw new IllegalArgumentException("gateway.webhooks.max-age must be positive, max-future-skew not negative");
        }
        if (unmatchedExcerptBytes < 0 || unmatchedRate < 0 || unmatchedGlobalRate < 0
                || (unmatchedRate > 0 && unmatchedBurst < 1) || (unmatchedGlobalRate > 0 && unmatchedGlobalBurst < 1)) {
            throw new IllegalArgumentException("gateway.webhooks.unmatched-* must not be negative, and a burst at least 1");
        }
    }
}
