package io.agentgateway.notifier;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The notifier's own settings ({@code gateway.notifier.*}).
 *
 * @param groupId            Kafka consumer group of the notifications topic
 * @param mailFrom           sender address of every email
 * @param maxAttempts        delivery attempts of one notification (the first one included) before it is dead-lettered
 * @param initialBackoff     wait before the first retry
 * @param backoffMultiplier  growth of the wait between retries
 * @param maxBackoff         longest wait between two retries
 * @param chatConnectTimeout how long to wait for the chat webhook's TCP/TLS connection
 * @param chatRequestTimeout how long to wait for the chat webhook's answer once the request is sent
 * @param concurrency        consumer threads; notifications of one workspace are always handled in order by one of them
 * @param publicBaseUrl      where reviewers reach the gateway's admin API (e.g. {@code https://gateway.example.com}), for
 *                           the approve and reject URLs of an approval request; unset: the paths alone are shown
 * @param instanceId         {@code group.instance.id} (static membership; unique per instance); unset: dynamic membership
 * @param sessionTimeout     a silent notifier's partitions move to another one after this (Kafka's default: 45 s)
 * @param urgentGroupId      consumer group of the kill-switch lane (its own consumer, so that no other notification
 *                           can delay a kill-switch alert); unset: {@code <groupId>-urgent}
 * @param approvalLimit      approval-request messages sent one by one per workspace within {@code approvalWindow}; the
 *                           rest of the window's are summed up in one digest when it ends (0: no limit)
 * @param approvalWindow     the window of {@code approvalLimit}
 */
@ConfigurationProperties("gateway.notifier")
public record NotifierProperties(
        @DefaultValue("gateway-notifier") String groupId,
        @DefaultValue("gateway@localhost") String mailFrom,
        @DefaultValue("5") int maxAttempts,
        @DefaultValue("PT1S") Duration initialBackoff,
        @DefaultValue("2.0") double backoffMultiplier,
        @DefaultValue("PT1M") Duration maxBackoff,
        @DefaultValue("PT5S") Duration chatConnectTimeout,
        @DefaultValue("PT10S") Duration chatRequestTimeout,
        @DefaultValue("1") int concurrency,
        String publicBaseUrl,
        String instanceId,
        @DefaultValue("PT6S") Duration sessionTimeout,
        String urgentGroupId,
        @DefaultValue("10") int approvalLimit,
        @DefaultValue("PT10M") Duration approvalWindow) {

    public NotifierProperties {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("gateway.notifier.max-attempts must be at least 1, was " + maxAttempts);
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("gateway.notifier.concurrency must be at least 1, was " + concurrency);
        }
        if (backoffMultiplier < 1.0) {
            throw new IllegalArgumentException("gateway.notifier.backoff-multiplier must be at least 1, was " + backoffMultiplier);
        }
        if (urgentGroupId == null || urgentGroupId.isBlank()) {
            urgentGroupId = groupId + "-urgent";
        }
        if (urgentGroupId.equals(groupId)) {
            throw new IllegalArgumentException("gateway.notifier.urgent-group-id must differ from gateway.notifier.group-id");
        }
        if (approvalLimit < 0) {
            throw new IllegalArgumentException("gateway.notifier.approval-limit must not be negative (0: no limit)");
        }
        if (approvalWindow == null || approvalWindow.isZero() || approvalWindow.isNegative()) {
            throw new IllegalArgumentException("gateway.notifier.approval-window must be positive");
        }
    }
}
