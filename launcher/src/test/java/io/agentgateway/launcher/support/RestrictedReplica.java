package io.agentgateway.launcher.support;

import io.agentgateway.launcher.GatewayHttpClient;
import java.util.Map;

/**
 * A second ingress on the test gateway with the services' own egress default (no allow-list: public
 * addresses only) and small limits on recording unmatched webhook deliveries, which the shared gateway
 * turns off (its embedded default allows loopback; its suites send many unmatched deliveries). Started once
 * per test JVM, on reply partition 2, and closed with the gateway.
 */
public final class RestrictedReplica {
    public static final int UNMATCHED_BURST = 3;
    static final Map<String, String> SETTINGS = Map.of(
            "gateway.egress.allow", "",
            "gateway.egress.hosts", "rebind.test=127.0.0.1",
            "gateway.webhooks.unmatched-rate", "1",
            "gateway.webhooks.unmatched-burst", Integer.toString(UNMATCHED_BURST),
            "gateway.webhooks.unmatched-global-rate", "0",
            // the shared gateway's OAuth token endpoint is on loopback, which this replica may not reach (a token URL
            // the policy refuses stops the start): no OAuth here
            "gateway.oauth.code-host.token-url", "",
            "gateway.oauth.issue-tracker.token-url", "");

    private static final IngressReplica REPLICA = new IngressReplica(2, SETTINGS); // closed with the gateway

    private RestrictedReplica() {}

    public static String baseUrl() {
        return REPLICA.baseUrl();
    }

    public static GatewayHttpClient client() {
        return REPLICA.client();
    }
}
