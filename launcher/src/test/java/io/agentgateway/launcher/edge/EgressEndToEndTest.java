package io.agentgateway.launcher.edge;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.ProxyTestSupport;
import io.agentgateway.launcher.support.ProxyUpstream;
import io.agentgateway.launcher.support.RestrictedReplica;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The egress policy end to end (issue 14 item 3): URLs refused when they are configured (400 naming the
 * rule) and addresses refused when connecting (a name that resolves to a refused address), with the
 * embedded default's allow-list (loopback) and with none (a replica that may reach public addresses only);
 * and the hop marker, which stops a connection pointing back at the gateway after one evaluation.
 */
class EgressEndToEndTest {
    /** The shared gateway's fixed names ({@code gateway.egress.hosts}): no DNS server is needed. */
    static final String HARNESS_HOSTS = GatewayHarness.EGRESS_TEST_HOSTS;
    private static final String HOP = "X-Agent-Gateway-Hop";
    private static final HttpClient http = GatewayHarness.http11Client();
    private static final ProxyUpstream upstream = ProxyUpstream.start();

    @AfterAll
    static void stop() {
        upstream.close();
    }

    /** An ingress replica with no allow-list (public addresses only). */
    private static GatewayHttpClient publicOnly() {
        return RestrictedReplica.client();
    }

    private static int port(String baseUrl) {
        return URI.create(baseUrl).getPort();
    }

    @Test
    void urlsThatAreNeverAllowedAreRefusedWhenConfiguredNamingTheRule() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        int gatewayPort = port(GatewayHarness.gateway().baseUrl());
        int managementPort = port(GatewayHarness.gateway().managementUrl());
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address: never allowed");
        refused.put("http://[fd00:ec2::254]/latest", "cloud metadata address");
        refused.put("http://100.100.100.200/latest", "cloud metadata address");
        refused.put("http://metadata.google.internal/computeMetadata/v1", "metadata.google.internal is a cloud metadata name");
        refused.put("http://metadata.goog./computeMetadata/v1", "cloud metadata name");
        refused.put("http://2852039166/latest", "169.254.169.254 is a cloud metadata address");
        refused.put("http://0xA9.0xFE.0xA9.0xFE/latest", "cloud metadata address");
        refused.put("http://[::ffff:169.254.169.254]/latest", "cloud metadata address");
        refused.put("http://169.254.10.10/", "link-local");
        refused.put("http://[fe80::1]/", "link-local");
        refused.put("http://0.0.0.0:" + upstreamPort() + "/", "unspecified");
        refused.put("http://[::]/", "unspecified");
        refused.put("http://224.0.0.1/", "multicast");
        refused.put("http://255.255.255.255/", "broadcast");
        // the gateway's own listeners, though loopback is allowed here
        refused.put(GatewayHarness.gateway().baseUrl() + "/functions/v1/gateway-proxy/code_host", "the gateway's own listeners");
        refused.put("http://localhost:" + gatewayPort + "/functions/v1", "the gateway's own listeners");
        refused.put("http://2130706433:" + gatewayPort + "/", "the gateway's own listeners");
        refused.put("http://[::ffff:127.0.0.1]:" + gatewayPort + "/", "the gateway's own listeners");
        refused.put("http://127.0.0.1:" + managementPort + "/actuator/prometheus", "the gateway's own listeners");

        String tools = "/admin/v1/workspaces/" + ws.id() + "/tools/";
        for (Map.Entry<String, String> url : refused.entrySet()) {
            var put = client().send("PUT", tools + "code_host", ws.ownerJwt(),
                    Map.of("config", Map.of("access_token", ProxyTestSupport.token()), "base_url", url.getKey()));
            assertRefused(put, "base_url", url);
            var mcp = client().send("PUT", tools + "mcp", ws.ownerJwt(),
                    Map.of("mcp_server_url", url.getKey(), "mcp_transport", "http"));
            assertRefused(mcp, "mcp_server_url", url);
            var chat = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/notification-settings", ws.ownerJwt(),
                    Map.of("chatWebhookUrl", url.getKey(), "emailEnabled", true));
            assertRefused(chat, "chatWebhookUrl", url);
        }
        assertThat(client().send("GET", tools + "code_host", ws.ownerJwt(), null).status()).isEqualTo(404);

        // loopback that is not the gateway: allowed by the embedded default's allow-list
        ProxyTestSupport.connect(ws, "code_host", Map.of("config", Map.of("access_token", ProxyTestSupport.token()),
                "base_url", upstream.baseUrl() + "/ok"));
    }

    @Test
    void withNoAllowListLoopbackAndPrivateAddressesAreRefusedInEverySpelling() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        GatewayHttpClient replica = publicOnly();
        List<String> refused = List.of("http://127.0.0.1:" + upstreamPort() + "/", "http://127.0.0.1.:" + upstreamPort() + "/",
                "http://2130706433/", "http://0x7f000001/", "http://0x7f.1/", "http://0177.0.0.1/", "http://127.1/",
                "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://localhost/",
                "http://LOCALHOST./", "http://10.0.0.1/", "http://167772161/", "http://172.16.0.1/", "http://192.168.1.1/",
                "http://100.64.0.1/", "http://[fc00::1]/", "http://[fd12:3456::1]/", "http://[::ffff:10.0.0.1]/");
        String tools = "/admin/v1/workspaces/" + ws.id() + "/tools/";
        for (String url : refused) {
            var put = replica.send("PUT", tools + "code_host", ws.ownerJwt(),
                    Map.of("config", Map.of("access_token", ProxyTestSupport.token()), "base_url", url));
            assertRefused(put, "base_url", Map.entry(url, "allowed only when gateway.egress.allow lists it"));
        }
        // a public name is accepted (it is resolved only when connecting)
        var put = replica.send("PUT", tools + "code_host", ws.ownerJwt(),
                Map.of("config", Map.of("access_token", ProxyTestSupport.token()), "base_url", "https://api.code-host.example/"));
        assertThat(put.status()).as(put.rawBody()).isEqualTo(200);
    }

    @Test
    void aNameThatResolvesToARefusedAddressIsRefusedWhenConnecting() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = "/rebind-" + UUID.randomUUID();
        // accepted when configured: a name; it resolves to loopback (gateway.egress.hosts stands in for DNS)
        ProxyTestSupport.connect(ws, "code_host", Map.of("config", Map.of("access_token", ProxyTestSupport.token()),
                "base_url", "http://rebind.test:" + upstreamPort() + base));

        // the embedded default allows loopback: the call goes through
        HttpResponse<String> allowed = proxyGet(GatewayHarness.gateway().baseUrl(), ws, "/repos/acme/api/issues");
        assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
        assertThat(upstream.requestsTo(base)).hasSize(1);
        assertThat(upstream.requestsTo(base).get(0).header(HOP)).as("the hop marker").isNotBlank();

        // a replica with no allow-list resolves the same name to the same address and refuses to connect
        HttpResponse<String> refused = proxyGet(RestrictedReplica.baseUrl(), ws, "/repos/acme/api/issues");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(502);
        assertThat(refused.body()).contains("\"ok\":false").contains("refused by the gateway's egress policy")
                .contains("correlationId").doesNotContain("127.0.0.1");
        assertThat(upstream.requestsTo(base)).as("nothing reached the upstream").hasSize(1);

        // a name that resolves to the metadata address: refused whatever the allow-list
        TestWorkspace other = GatewayHarness.newWorkspace();
        ProxyTestSupport.connect(other, "code_host", Map.of("config", Map.of("access_token", ProxyTestSupport.token()),
                "base_url", "http://metadata-alias.test:" + upstreamPort() + base));
        HttpResponse<String> metadata = proxyGet(GatewayHarness.gateway().baseUrl(), other, "/repos/acme/api/issues");
        assertThat(metadata.statusCode()).as(metadata.body()).isEqualTo(502);
        assertThat(metadata.body()).contains("refused by the gateway's egress policy");
    }

    @Test
    void aConnectionPointingBackAtTheGatewayCostsOneEvaluation() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        int gatewayPort = port(GatewayHarness.gateway().baseUrl());
        try (TcpRelay relay = TcpRelay.to(gatewayPort)) {
            // the issue tracker's token is sent as "Bearer <token>": with the workspace's own API key as the token,
            // and the gateway's proxy (through a relay: its own listeners are refused) as the base URL, every
            // forwarded call would be a new agent call to the gateway
            ProxyTestSupport.connect(ws, "issue_tracker", Map.of("config", Map.of("access_token", ws.apiKey()),
                    "base_url", "http://127.0.0.1:" + relay.port() + "/functions/v1/gateway-proxy/issue_tracker"));

            HttpRequest request = HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl()
                            + "/functions/v1/gateway-proxy/issue_tracker/graphql"))
                    .timeout(Duration.ofSeconds(20))
                    .header("Authorization", "Bearer " + ws.apiKey())
                    .header("X-Agent-Id", "agent-loop")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"query\":\"query Viewer { viewer { id } }\"}"))
                    .build();
            HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());

            // the second gateway hop refused it before any evaluation; the agent gets that answer as the upstream's
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(508);
            assertThat(answer.body()).contains("\"ok\":false").contains("already passed through an agent gateway");
            await().atMost(ProxyTestSupport.PROJECTED).until(() -> ProxyTestSupport.proxyAuditRows(ws.id()).size() >= 1);
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                    .until(() -> ProxyTestSupport.proxyAuditRows(ws.id()).size() == 1);
        }
    }

    @Test
    void everyEntryPointRefusesARequestCarryingTheHopMarkerBeforeAnyEvaluation() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        List<GatewayHttpClient.Response> answers = new ArrayList<>();
        answers.add(client().send("POST", "/functions/v1/evaluate-action", ws.apiKey(),
                GatewayHarness.action("code_host", "issues.create", "low"), Map.of(HOP, "gw-elsewhere")));
        answers.add(client().send("POST", "/functions/v1/webhook-code-host", null, Map.of("x", 1), Map.of(HOP, "gw-elsewhere")));
        answers.add(client().send("POST", "/functions/v1/mcp-gate/sse", ws.apiKey(),
                Map.of("jsonrpc", "2.0", "id", 1, "method", "tools/list"), Map.of(HOP, "x")));
        answers.add(client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/tools", ws.ownerJwt(), null, Map.of(HOP, "x")));
        for (GatewayHttpClient.Response answer : answers) {
            assertThat(answer.status()).as(answer.rawBody()).isEqualTo(508);
            assertThat(answer.body().get("ok").booleanValue()).isFalse();
            assertThat(answer.text("error")).contains(HOP);
            assertThat(answer.text("correlationId")).isNotBlank();
        }
        // nothing was evaluated: a plain evaluation afterwards is the workspace's first audit row
        assertThat(GatewayHarness.evaluate(ws, GatewayHarness.action("code_host", "issues.create", "low")).status()).isEqualTo(200);
        try (var db = GatewayHarness.db(); var query = db.prepareStatement("select count(*) from audit_log where workspace_id = ?::uuid")) {
            query.setString(1, ws.id());
            await().atMost(ProxyTestSupport.PROJECTED).during(Duration.ofMillis(500)).until(() -> {
                try (var rs = query.executeQuery()) {
                    rs.next();
                    return rs.getInt(1) == 1;
                }
            });
        }
    }

    private static void assertRefused(GatewayHttpClient.Response answer, String field, Map.Entry<String, String> url) {
        assertThat(answer.status()).as(field + " " + url.getKey() + ": " + answer.rawBody()).isEqualTo(400);
        assertThat(answer.body().get("ok").booleanValue()).isFalse();
        assertThat(answer.text("error")).as(url.getKey()).startsWith(field + " is refused by the egress policy: ")
                .contains(url.getValue());
        assertThat(answer.text("correlationId")).isNotBlank();
    }

    private static int upstreamPort() {
        return URI.create(upstream.baseUrl()).getPort();
    }

    private static HttpResponse<String> proxyGet(String gateway, TestWorkspace ws, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gateway + "/functions/v1/gateway-proxy/code_host" + path))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + ws.apiKey())
                .header("X-Agent-Id", "agent-egress")
                .GET().build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
