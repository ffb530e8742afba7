package io.agentgateway.httpedge.edge;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counter {@code gateway.http.refused} (tag {@code reason}): requests the HTTP edge answered itself
 * (timeouts, undecodable requests). They are counted instead of logged: a client must not be able to
 * fill the log.
 */
final class HttpEdgeRefusals {
    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    HttpEdgeRefusals(MeterRegistry registry) {
        this.registry = registry;
    }

    void count(String reason) {
        counters.computeIfAbsent(reason, r -> Counter.builder("gateway.http.refused")
                .description("Requests the HTTP edge refused itself: too slow, or not decodable as HTTP")
                .tag("reason", r).register(registry)).increment();
    }
}
