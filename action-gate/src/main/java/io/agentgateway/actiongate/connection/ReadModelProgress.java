package io.agentgateway.actiongate.connection;

import io.agentgateway.gatewayclient.config.IngressProperties;
import io.agentgateway.httpedge.web.Blocking;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Waits, bounded, until the projector has written a workspace's change: {@code workspaces.workspace_version}
 * (advanced in the same transaction as the change's rows) reaches the version the decision stream's reply
 * named. Used by the changes of the connections the webhook verifier finds through the read model
 * (code_host, issue_tracker; {@link WebhookRouting}), so that a delivery sent once the admin API
 * answered finds a repository or team the change added. Everything else the entry points use comes from
 * the decision stream and needs no wait.
 */
@Component
public class ReadModelProgress {
    private static final Logger log = LoggerFactory.getLogger(ReadModelProgress.class);
    private static final Duration POLL = Duration.ofMillis(10);

    private final JdbcClient jdbc;
    private final Duration bound;

    public ReadModelProgress(JdbcClient jdbc, IngressProperties properties) {
        this.jdbc = jdbc;
        this.bound = properties.projectionWait();
    }

    /** Completes once the read model shows {@code version} of the workspace, or after the bound (logged). */
    public Mono<Void> awaitWorkspaceVersion(UUID workspaceId, Long version) {
        if (version == null || bound.isZero()) {
            return Mono.empty();
        }
        return Blocking.call(() -> projectedVersion(workspaceId))
                .filter(projected -> projected >= version)
                .repeatWhenEmpty(attempts -> attempts.delayElements(POLL))
                .timeout(bound)
                .onErrorResume(TimeoutException.class, late -> {
                    log.warn("workspace {}: the read model did not reach version {} within {}; answering anyway",
                            workspaceId, version, bound);
                    return Mono.empty();
                })
                .then();
    }

    private long projectedVersion(UUID workspaceId) {
        return jdbc.sql("select workspace_version from workspaces where id = :id")
                .param("id", workspaceId)
                .query(Long.class)
                .optional()
                .orElse(0L);
    }
}
