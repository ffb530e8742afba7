package io.agentgateway.launcher.support;

import io.agentgateway.launcher.GatewayHttpClient;
import java.util.Map;

/**
 * A second ingress on the test gateway, with the HTTP edge's timeouts and the fair-use limits set small
 * enough to reach in a test (the shared gateway keeps the defaults, and its rate limits off). Started
 * once per test JVM, on reply partition 3, and closed with the gateway.
 */
public final class EdgeReplica {
    static final Map<String, String> SETTINGS = Map.ofEntries(
            Map.entry("gateway.http.header-timeout", "PT2S"),
            Map.entry("gateway.http.body-read-timeout", "PT2S"),
            Map.entry("gateway.http.body-timeout", "PT4S"),
            Map.entry("gateway.http.idle-timeout", "PT3S"),
            Map.entry("gateway.limits.key-rate", "2"),
            Map.entry("gateway.limits.key-burst", "5"),
            Map.entry("gateway.limits.workspace-rate", "3"),
            Map.entry("gateway.limits.workspace-burst", "8"),
            Map.entry("gateway.mcp.sse-max-sessions-per-key", "2"),
            Map.entry("gateway.mcp.sse-max-sessions-per-workspace", "3"),
            Map.entry("gateway.mcp.sse-idle-timeout", "PT3S"),
            Map.entry("gateway.mcp.max-batch-size", "5"));

    private static final IngressReplica REPLICA = new IngressReplica(3, SETTINGS); // closed with the gateway

    private EdgeReplica() {}

    public static String baseUrl() {
        return REPLICA.baseUrl();
    }

    public static GatewayHttpClient client() {
        return REPLICA.client();
    }
}
