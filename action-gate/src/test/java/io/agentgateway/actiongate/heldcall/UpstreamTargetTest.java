package io.agentgateway.actiongate.heldcall;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpHeaders;

/** The gateway's headers over the agent's, but for the agent's own format of the tool's vendor media type. */
class UpstreamTargetTest {
    private static final String DEFAULT = "application/vnd.github.v3+json";
    private final UpstreamTarget codeHost = new UpstreamTarget(URI.create("https://api.example"),
            linked("Authorization", "token t", "User-Agent", "service/1.0", "Accept", DEFAULT));

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "application/vnd.github.v3.raw                           | application/vnd.github.v3.raw",
            "application/vnd.github.v3.diff                          | application/vnd.github.v3.diff",
            "application/vnd.github.v3.patch                         | application/vnd.github.v3.patch",
            "application/vnd.github.html+json                        | application/vnd.github.html+json",
            "application/vnd.github.raw+json                         | application/vnd.github.raw+json",
            "APPLICATION/VND.GITHUB.V3.FULL+JSON                     | APPLICATION/VND.GITHUB.V3.FULL+JSON",
            "application/vnd.github.v3.raw, application/vnd.github.v3+json | application/vnd.github.v3.raw, application/vnd.github.v3+json",
            // anything not in the vendor's tree: the spec's default
            "application/json                                        | " + DEFAULT,
            "*/*                                                     | " + DEFAULT,
            "application/vnd.github.v3.raw, */*                      | " + DEFAULT,
            "application/vnd.githubx.v3.raw                          | " + DEFAULT,
            "application/vnd.gitlab.v4+json                          | " + DEFAULT,
            "application/vnd.github.                                 | " + DEFAULT,
            "text/html                                               | " + DEFAULT,
    })
    void theAgentsOwnFormatOfTheVendorTypePassesAndNothingElse(String agentAccept, String sent) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("Accept", agentAccept);
        headers.set("Authorization", "Bearer agk_x");
        codeHost.applyTo(headers);
        assertThat(String.join(", ", headers.get("Accept"))).isEqualTo(sent);
        assertThat(headers.get("Authorization")).containsExactly("token t");
        assertThat(headers.get("User-Agent")).containsExactly("service/1.0");
    }

    @Test
    void withoutAnAcceptTheGatewaysIsSent() {
        HttpHeaders headers = new HttpHeaders();
        codeHost.applyTo(headers);
        assertThat(headers.get("Accept")).containsExactly(DEFAULT);
    }

    @Test
    void aTargetWithoutAVendorTypeSetsItsHeadersOverTheAgents() {
        UpstreamTarget plain = new UpstreamTarget(URI.create("https://api.example"), Map.of("Accept", "application/json"));
        HttpHeaders headers = new HttpHeaders();
        headers.set("Accept", "application/vnd.example.raw");
        plain.applyTo(headers);
        assertThat(headers.get("Accept")).containsExactly("application/json");
    }

    private static Map<String, String> linked(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
