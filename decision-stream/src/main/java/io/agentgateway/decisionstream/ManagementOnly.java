package io.agentgateway.decisionstream;

import java.util.Map;

/**
 * Run alone, this service serves the actuator (health, Prometheus) on its management server:
 * {@code management.server.port} (8082) on {@code management.server.address} (loopback), see the defaults
 * file. Boot runs a management server of its own only beside an application server, so that one is put on a
 * free loopback port, where it serves nothing (this service has no API). In the launcher the service runs
 * without either.
 */
final class ManagementOnly {
    static final Map<String, Object> APPLICATION_SERVER = Map.of("server.port", "0", "server.address", "127.0.0.1");

    private ManagementOnly() {}
}
