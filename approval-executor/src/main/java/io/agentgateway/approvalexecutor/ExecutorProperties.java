package io.agentgateway.approvalexecutor;

import io.agentgateway.schemas.Tool;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.executor.*}: the approval executor, which runs approved held calls once.
 *
 * @param enabled          consume the events topic and run approved calls (one consumer group for
 *                         all ingress replicas: each approval is handled by one of them, and the
 *                         claim makes sure that even a redelivery never runs it twice)
 * @param groupId          its consumer group on gateway.events.v1
 * @param concurrency      consumer threads (each runs one approved call at a time)
 * @param heldCallWait     how long to wait for the projector to show a just-approved held call
 * @param commandAttempts  attempts at a claim or a record while the decision stream does not answer
 *                         (the same command id each time, so a late answer is the same answer); then the
 *                         claim's event is delivered again and the claim asked again under that id, and the
 *                         record is offered for {@link ApprovalExecutorConfiguration#RECORD_PATIENCE} more
 * @param httpTimeout      how long a held HTTP request may take, response included
 * @param maxResultBytes   the response body kept in the execution result (longer ones are cut, truncated = true)
 * @param sessionTimeout   the executor group's consumer session: an ingress replica that dies hands its partitions
 *                         (and the approvals waiting on them) to another one after this long, not Kafka's 45 s
 * @param httpUpstreams    base URL per tool (wire name) for held HTTP requests, e.g.
 *                         {@code gateway.executor.http-upstreams.internal_api=https://api.internal}; the
 *                         proxy's tool connections take this over
 */
@ConfigurationProperties("gateway.executor")
public record ExecutorProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("gateway-approval-executor") String groupId,
        @DefaultValue("1") int concurrency,
        @DefaultValue("PT30S") Duration heldCallWait,
        @DefaultValue("5") int commandAttempts,
        @DefaultValue("PT30S") Duration httpTimeout,
        @DefaultValue("65536") int maxResultBytes,
        @DefaultValue("PT6S") Duration sessionTimeout,
        Map<String, URI> httpUpstreams) {

    public ExecutorProperties {
        if (concurrency < 1 || commandAttempts < 1 || maxResultBytes < 1) {
            throw new IllegalArgumentException(
                    "gateway.executor.concurrency, command-attempts and max-result-bytes must be at least 1");
        }
        if (heldCallWait.isNegative() || httpTimeout.isZero() || httpTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.executor.held-call-wait and http-timeout must be positive");
        }
        if (sessionTimeout.compareTo(Duration.ofSeconds(6)) < 0 || sessionTimeout.compareTo(Duration.ofMinutes(30)) > 0) {
            // the broker refuses sessions outside group.min/max.session.timeout.ms (defaults 6 s and 30 min)
            throw new IllegalArgumentException("gateway.executor.session-timeout must be between 6 s and 30 min");
        }
        TreeMap<String, URI> upstreams = new TreeMap<>();
        if (httpUpstreams != null) {
            httpUpstreams.forEach((tool, url) -> {
                if (Tool.parse(tool).isEmpty()) {
                    throw new IllegalArgumentException("gateway.executor.http-upstreams." + tool + ": not a tool name");
                }
                if (url == null || !url.isAbsolute() || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
                    throw new IllegalArgumentException("gateway.executor.http-upstreams." + tool + " must be an http(s) URL");
                }
                upstreams.put(tool, url);
            });
        }
        httpUpstreams = Collections.unmodifiableMap(upstreams);
    }
}
