package io.agentgateway.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;

/** The connect-time check with a real Reactor Netty client and server on loopback. */
class EgressResolverGroupTest {
    private static DisposableServer server;
    private static final AtomicReference<String> hopSeen = new AtomicReference<>();
    private final OwnListeners own = new OwnListeners();

    @BeforeAll
    static void start() {
        server = HttpServer.create().host("127.0.0.1").port(0)
                .handle((request, response) -> {
                    hopSeen.set(request.requestHeaders().get(EgressPolicy.HOP_HEADER));
                    return response.sendString(Mono.just("ok"));
                })
                .bindNow();
    }

    @AfterAll
    static void stop() {
        server.disposeNow();
    }

    private HttpClient client(List<String> allow, List<String> hosts) {
        EgressPolicy policy = new EgressPolicy(allow, own, List.of());
        EgressClients clients = new EgressClients(policy, new EgressResolverGroup(policy, NameLookup.of(hosts)), "gw-test");
        return clients.apply(HttpClient.create()).responseTimeout(Duration.ofSeconds(5));
    }

    private static String get(HttpClient client, String url) {
        return client.get().uri(url).responseContent().aggregate().asString().block(Duration.ofSeconds(10));
    }

    @Test
    void aNameThatResolvesToLoopbackIsRefusedWhenConnectingUnlessAllowed() {
        String url = "http://upstream.test:" + server.port() + "/";
        assertThatThrownBy(() -> get(client(List.of(), List.of("upstream.test=127.0.0.1")), url))
                .satisfies(e -> assertThat(EgressRefusedException.in(e)).isNotNull()
                        .extracting(EgressRefusedException::rule).asString().contains("127.0.0.1 is a loopback address"));
        assertThat(get(client(List.of("127.0.0.0/8"), List.of("upstream.test=127.0.0.1")), url)).isEqualTo("ok");
        assertThat(hopSeen.get()).isEqualTo("gw-test");
    }

    @Test
    void aLiteralAddressIsCheckedToo() {
        assertThatThrownBy(() -> get(client(List.of(), List.of()), "http://127.0.0.1:" + server.port() + "/"))
                .satisfies(e -> assertThat(EgressRefusedException.in(e)).isNotNull());
        assertThatThrownBy(() -> get(client(List.of("0.0.0.0/0"), List.of()), "http://[::ffff:169.254.169.254]:" + server.port() + "/"))
                .satisfies(e -> assertThat(EgressRefusedException.in(e)).isNotNull());
    }

    @Test
    void oneRefusedAddressAmongSeveralRefusesTheName() {
        assertThatThrownBy(() -> get(client(List.of("127.0.0.0/8"), List.of("mixed.test=127.0.0.1", "mixed.test=169.254.169.254")),
                "http://mixed.test:" + server.port() + "/"))
                .satisfies(e -> assertThat(EgressRefusedException.in(e)).isNotNull()
                        .extracting(EgressRefusedException::rule).asString().contains("metadata"));
    }

    @Test
    void theGatewaysOwnPortIsRefusedWithLoopbackAllowed() {
        own.register(this, server.port());
        assertThatThrownBy(() -> get(client(List.of("127.0.0.0/8"), List.of()), "http://127.0.0.1:" + server.port() + "/"))
                .satisfies(e -> assertThat(EgressRefusedException.in(e)).isNotNull()
                        .extracting(EgressRefusedException::rule).asString().contains("own listeners"));
    }
}
