package io.agentgateway.actiongate.connection;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.webhooks.candidate-index-ttl}: read by the webhook verifier's candidate index and by every change of a
 * connection that receives webhooks ({@link WebhookRouting}), so it lives with what the products share; the webhooks'
 * other settings are {@code webhook.WebhookProperties} (the same prefix).
 *
 * @param candidateIndexTtl the longest an answer of the candidate index (which workspaces a payload names) is
 *                        kept; a change of a code_host or issue_tracker connection waits this long after the
 *                        read model shows it before it answers ({@code PT0S}: no index answer kept, no wait;
 *                        see {@code webhook.WebhookCandidateIndex})
 */
@ConfigurationProperties("gateway.webhooks")
public record CandidateIndexProperties(@DefaultValue("PT0.5S") Duration candidateIndexTtl) {

    public CandidateIndexProperties {
        if (candidateIndexTtl.isNegative()) {
            throw new IllegalArgumentException("gateway.webhooks.candidate-index-ttl must not be negative");
        }
    }
}
