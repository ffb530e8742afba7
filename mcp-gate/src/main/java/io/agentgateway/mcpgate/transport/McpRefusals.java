package io.agentgateway.mcpgate.transport;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Counter {@code gateway.mcp.refused} (tag {@code reason}: {@code header_mismatch}, {@code invalid_params},
 * {@code unsupported_version}, {@code invalid_request}: refused before anything was done with the request;
 * {@code missing_capability}, {@code method_not_found}: a method the request may not use or the gate does not serve):
 * 2026-07-28 requests answered as protocol errors with an HTTP error status. A refused request is no decision on a
 * tool and leaves no audit row; it is counted, and logged at DEBUG only with its correlation id (a client must not be
 * able to fill the log).
 */
@Component
class McpRefusals {
    private static final Logger log = LoggerFactory.getLogger(McpRefusals.class);
    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    McpRefusals(MeterRegistry registry) {
        this.registry = registry;
    }

    void count(String reason, String correlationId, String message) {
        counters.computeIfAbsent(reason, r -> Counter.builder("gateway.mcp.refused")
                .description("MCP 2026-07-28 requests answered as protocol errors with an HTTP error status (headers, _meta, version, capability, method)")
                .tag("reason", r).register(registry)).increment();
        log.debug("[{}] MCP request refused ({}): {}", correlationId, reason, message);
    }
}
