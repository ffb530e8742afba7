package io.agentgateway.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class EgressPolicyTest {
    private final OwnListeners own = new OwnListeners();
    private final EgressPolicy publicOnly = new EgressPolicy(List.of(), own, List.of("https://gateway.example.com"));
    private final EgressPolicy loopbackAllowed = new EgressPolicy(List.of("127.0.0.0/8", "::1", "10.1.0.0/16", "*.corp.internal"),
            own, List.of());

    @Test
    void metadataAndLinkLocalAreRefusedWhateverTheAllowList() {
        EgressPolicy everything = new EgressPolicy(List.of("0.0.0.0/0", "::/0"), own, List.of());
        for (String url : List.of("http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.100.100.200/",
                "http://metadata.google.internal/computeMetadata/v1/", "http://METADATA.GOOGLE.INTERNAL./", "http://metadata.goog/",
                "http://169.254.1.1/", "http://[fe80::1]/", "http://[fe80::1%25eth0]:8080/", "http://0.0.0.0/", "http://[::]/",
                "http://224.0.0.1/", "http://255.255.255.255/", "http://[ff02::1]/", "http://[::ffff:169.254.169.254]/",
                "http://2852039166/", "http://0xA9FEA9FE/", "http://0251.0376.0251.0376/", "http://169.254.169.254./",
                "http://0/")) {
            assertThat(everything.refusalOfUrl(url)).as(url).isPresent().get().asString().contains("never allowed");
            assertThat(publicOnly.refusalOfUrl(url)).as(url).isPresent();
        }
        assertThat(everything.refusalOfUrl("http://169.254.169.254/")).contains("169.254.169.254 is a cloud metadata address: never allowed");
        assertThat(everything.refusalOfUrl("http://2852039166/")).get().asString().startsWith("169.254.169.254 is a cloud metadata");
    }

    @Test
    void loopbackInEverySpellingNeedsTheAllowList() {
        for (String url : List.of("http://127.0.0.1:9000/", "http://127.0.0.1.:9000/", "http://2130706433/", "http://0x7f000001/",
                "http://0x7f.1/", "http://0177.0.0.1/", "http://127.1/", "http://[::1]/", "http://[::ffff:127.0.0.1]/",
                "http://[::ffff:7f00:1]/", "http://[0:0:0:0:0:ffff:127.0.0.1]/", "http://localhost:9000/", "http://LOCALHOST./",
                "http://api.localhost/", "http://127.255.255.254/")) {
            assertThat(publicOnly.refusalOfUrl(url)).as(url).isPresent().get().asString()
                    .contains("loopback").contains("allowed only when gateway.egress.allow lists it");
            assertThat(loopbackAllowed.refusalOfUrl(url)).as(url).isEmpty();
        }
    }

    @Test
    void privateRangesNeedTheAllowList() {
        for (String url : List.of("http://10.0.0.1/", "http://172.16.5.4/", "http://172.31.255.255/", "http://192.168.1.1/",
                "http://100.64.0.1/", "http://[fc00::1]/", "http://[fd12:3456::1]/", "http://167772161/", "http://[::ffff:10.0.0.1]/")) {
            assertThat(publicOnly.refusalOfUrl(url)).as(url).isPresent().get().asString().contains("private address");
        }
        assertThat(loopbackAllowed.refusalOfUrl("http://10.1.2.3/")).isEmpty();
        assertThat(loopbackAllowed.refusalOfUrl("http://10.2.0.1/")).isPresent();
    }

    @Test
    void publicAddressesAndNamesPass() {
        for (String url : List.of("https://api.github.com/", "https://8.8.8.8/", "http://[2606:4700::1111]/", "https://172.32.0.1/",
                "https://hooks.slack.com/services/T/B/x", "https://mcp.example.com:8443/sse")) {
            assertThat(publicOnly.refusalOfUrl(url)).as(url).isEmpty();
        }
    }

    @Test
    void theGatewaysOwnListenersAreRefusedEvenWithLoopbackAllowed() {
        own.register(this, 18_080);
        assertThat(loopbackAllowed.refusalOfUrl("http://127.0.0.1:18080/functions/v1/gateway-proxy/code_host"))
                .get().asString().contains("one of the gateway's own listeners: never allowed");
        assertThat(loopbackAllowed.refusalOfUrl("http://localhost:18080/")).isPresent();
        assertThat(loopbackAllowed.refusalOfUrl("http://[::ffff:127.0.0.1]:18080/")).isPresent();
        assertThat(loopbackAllowed.refusalOfUrl("http://127.0.0.1:18081/")).isEmpty();
        assertThat(publicOnly.refusalOfUrl("https://gateway.example.com/functions/v1/gateway-proxy/code_host"))
                .get().asString().contains("the gateway's own public address");
        own.unregister(this);
        assertThat(loopbackAllowed.refusalOfUrl("http://127.0.0.1:18080/")).isEmpty();
    }

    @Test
    void connectTimeChecksEveryAddressWithTheNameItCameFrom() throws Exception {
        assertThatThrownBy(() -> publicOnly.checkAddress("rebind.test", InetAddress.getByName("127.0.0.1"), 80))
                .isInstanceOf(EgressRefusedException.class).hasMessageContaining("loopback");
        loopbackAllowed.checkAddress("db.corp.internal", InetAddress.getByName("10.9.9.9"), 80);
        assertThatThrownBy(() -> loopbackAllowed.checkAddress("db.other.internal", InetAddress.getByName("10.9.9.9"), 80))
                .isInstanceOf(EgressRefusedException.class);
        assertThatThrownBy(() -> loopbackAllowed.checkName("metadata.google.internal.", 80))
                .isInstanceOf(EgressRefusedException.class).hasMessageContaining("cloud metadata name");
    }

    @Test
    void anAllowListEntryThatIsNothingStopsTheStart() {
        assertThatThrownBy(() -> new EgressPolicy(List.of("10.0.0.0/8", "not a host!"), own, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'not a host!'");
    }

    @Test
    void urlsThatAreNoHttpUrlsAreLeftToTheCallersValidation() {
        assertThat(publicOnly.refusalOfUrl("not a url")).isEmpty();
        assertThat(publicOnly.refusalOfUrl("ftp://127.0.0.1/")).isEmpty();
    }
}
