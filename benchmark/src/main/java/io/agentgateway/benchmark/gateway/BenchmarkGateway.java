package io.agentgateway.benchmark.gateway;

import java.util.Map;

/** The properties every benchmark starts the embedded gateway with. */
public final class BenchmarkGateway {
    /**
     * Quiet logs, and the per-key and per-workspace request rate limits off: a benchmark measures what the
     * gateway can do, from a handful of keys, far above any fair-use rate (gateway.limits.*, docs/security.md).
     */
    public static final Map<String, String> PROPERTIES = Map.of(
            "logging.level.root", "WARN",
            "gateway.limits.key-rate", "0",
            "gateway.limits.workspace-rate", "0");

    private BenchmarkGateway() {}
}
