package io.agentgateway.ingress.webhook;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.webhooks.*}.
 *
 * @param maxBodyBytes    webhook bodies above this size are refused with 413 before anything else is
 *                        looked at (512 KiB by default: the command carrying the payload must stay well
 *                        under Kafka's 1 MB record limit; the code host's usual events are far smaller)
 * @param maxAge          issue tracker: a {@code webhookTimestamp} older than this is refused (spec 8: 5 minutes)
 * @param maxFutureSkew   issue tracker: a {@code webhookTimestamp} further ahead than this is refused
 *                        (clock skew allowance; a far-future stamp would otherwise stay "fresh" for ever)
 * @param candidateIndexTtl the longest an answer of the candidate index (which workspaces a payload names) is
 *                        kept; a change of a code_host or issue_tracker connection waits this long after the
 *                        read model shows it before it answers ({@code PT0S}: no index answer kept, no wait;
 *                        see {@link WebhookCandidateIndex})
 */
@ConfigurationProperties("gateway.webhooks")
public record WebhookProperties(
        @DefaultValue("524288") int maxBodyBytes,
        @DefaultValue("PT5M") Duration maxAge,
        @DefaultValue("PT1M") Duration maxFutureSkew,
        @DefaultValue("PT0.5S") Duration candidateIndexTtl) {

    public WebhookProperties {
        if (maxBodyBytes <= 0) {
            throw new IllegalArgumentException("gateway.webhooks.max-body-bytes must be positive");
        }
        if (maxAge.isNegative() || maxAge.isZero() || maxFutureSkew.isNegative()) {
            throw new IllegalArgumentException("gateway.webhooks.max-age must be positive, max-future-skew not negative");
        }
        if (candidateIndexTtl.isNegative()) {
            throw new IllegalArgumentException("gateway.webhooks.candidate-index-ttl must not be negative");
        }
    }
}
