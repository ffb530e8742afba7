package io.agentgateway.gatewayclient.config;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.ingress.*}.
 *
 * @param replyPartition  the partition of the replies topic this instance owns; every ingress
 *                        instance needs its own (the topic has gateway.topics.reply-partitions)
 * @param replyTimeout    how long a request waits for the decision stream before it fails with 504
 * @param maxBodyBytes    request bodies above this size are refused with 413
 * @param projectionWait  how long an admin change of a code_host or issue_tracker connection waits, before
 *                        it answers, for the read model to show it (the webhook verifier finds the
 *                        workspaces a delivery names there); beyond it the answer goes out anyway
 * @param journalDir      a directory of this replica's own, kept across restarts, for its in-flight journal: the
 *                        evaluations published and not yet answered, which the next start after a crash reports as
 *                        reaching nobody (docs/operating-a-cluster.md, "Deadlines and retries"); unset, a crash
 *                        leaves them recorded as delivered
 */
@ConfigurationProperties("gateway.ingress")
public record IngressProperties(
        @DefaultValue("0") int replyPartition,
        @DefaultValue("PT5S") Duration replyTimeout,
        @DefaultValue("262144") int maxBodyBytes,
        @DefaultValue("PT10S") Duration projectionWait,
        Path journalDir) {

    public IngressProperties {
        if (replyPartition < 0) {
            throw new IllegalArgumentException("gateway.ingress.reply-partition must be >= 0");
        }
        if (replyTimeout.isZero() || replyTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.ingress.reply-timeout must be positive");
        }
        if (maxBodyBytes <= 0) {
            throw new IllegalArgumentException("gateway.ingress.max-body-bytes must be positive");
        }
        if (projectionWait == null || projectionWait.isNegative()) {
            throw new IllegalArgumentException("gateway.ingress.projection-wait must not be negative");
        }
    }
}
