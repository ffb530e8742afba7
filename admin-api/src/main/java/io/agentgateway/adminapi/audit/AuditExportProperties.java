package io.agentgateway.adminapi.audit;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.ingress.audit-export.*}.
 *
 * @param maxConcurrent  exports that may run at once; each holds one pooled database connection (and
 *                       one worker thread) for its whole duration, so they must not starve the other
 *                       reads of the pool. More get 429.
 * @param stallTimeout   an export whose client has taken nothing for this long is ended, so that a
 *                       client that stops reading but keeps its connection open cannot hold a
 *                       transaction and a connection forever
 */
@ConfigurationProperties("gateway.ingress.audit-export")
public record AuditExportProperties(
        @DefaultValue("2") int maxConcurrent,
        @DefaultValue("PT5M") Duration stallTimeout) {

    public AuditExportProperties {
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("gateway.ingress.audit-export.max-concurrent must be >= 1");
        }
        if (stallTimeout.isZero() || stallTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.ingress.audit-export.stall-timeout must be positive");
        }
    }
}
