package io.agentgateway.projector;

import java.util.Map;

/**
 * The HTTP server of this service when it runs alone is its management server: the same port and
 * address ({@code management.server.port} / {@code .address}, see the defaults file), serving the
 * actuator's health and Prometheus endpoints and nothing else. In the launcher it runs without one.
 */
final class ManagementOnly {
    static final Map<String, Object> SERVER_ON_MANAGEMENT_PORT = Map.of(
            "server.port", "${management.server.port}",
            "server.address", "${management.server.address}");

    private ManagementOnly() {}
}
