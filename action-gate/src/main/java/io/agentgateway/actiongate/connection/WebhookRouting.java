package io.agentgateway.actiongate.connection;

import io.agentgateway.httpedge.web.WebhookSetup;
import io.agentgateway.schemas.Tool;
import java.time.Duration;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * What a change of a connection that receives webhooks (code_host, issue_tracker) waits for before it is
 * answered, so that a delivery sent once it answered finds every workspace the change added, on every
 * replica: the read model shows the change ({@link ReadModelProgress}, bounded by
 * {@code gateway.ingress.projection-wait}), then {@code gateway.webhooks.candidate-index-ttl} passes, by
 * which time every replica's kept index answer from before the change has expired
 * ({@code webhook.WebhookCandidateIndex}). Other tools need no wait: nothing finds them through the read model.
 */
@Component
public class WebhookRouting {
    private final ReadModelProgress projection;
    private final Duration indexTtl;

    WebhookRouting(ReadModelProgress projection, CandidateIndexProperties properties) {
        this.projection = projection;
        this.indexTtl = properties.candidateIndexTtl();
    }

    /** Completes once a change of the workspace's connection to {@code tool} (of that version) is visible to deliveries. */
    public Mono<Void> awaitVisible(UUID workspaceId, Tool tool, Long version) {
        if (!WebhookSetup.sendsWebhooks(tool)) {
            return Mono.empty();
        }
        Mono<Void> projected = projection.awaitWorkspaceVersion(workspaceId, version);
        return indexTtl.isZero() ? projected : projected.then(Mono.delay(indexTtl)).then();
    }
}
