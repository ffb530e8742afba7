package io.agentgateway.toolproxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The upstream's own URLs in response headers become the gateway's, so that follow-ups stay on the gateway. */
class UpstreamUrlsTest {
    private static final String GATEWAY = "https://gw.example/functions/v1/gateway-proxy/code_host";
    private final UpstreamUrls urls = new UpstreamUrls(URI.create("https://api.example/api/v3/"),
            URI.create("https://api.example/api/v3/repos/acme/api/issues?page=1"), GATEWAY);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "https://api.example/api/v3/repositories/1/issues?page=2 | " + GATEWAY + "/repositories/1/issues?page=2",
            "HTTPS://API.EXAMPLE:443/api/v3/x#frag                    | " + GATEWAY + "/x#frag",
            "https://api.example/api/v3                               | " + GATEWAY,
            "/api/v3/repos/acme/api/issues/9                          | " + GATEWAY + "/repos/acme/api/issues/9",
            "9                                                        | " + GATEWAY + "/repos/acme/api/9",
            "?page=3                                                  | " + GATEWAY + "/repos/acme/api/issues?page=3",
            // not under the base: left as they are
            "https://api.example/api/v30/x                            | https://api.example/api/v30/x",
            "https://api.example/login                                | https://api.example/login",
            "/login                                                   | /login",
            "http://api.example/api/v3/x                              | http://api.example/api/v3/x",
            "https://api.example:8443/api/v3/x                        | https://api.example:8443/api/v3/x",
            "https://github.example/acme/api/pull/7                   | https://github.example/acme/api/pull/7",
            "not a uri ^^                                             | not a uri ^^",
    })
    void aReferenceUnderTheUpstreamBaseBecomesTheGateways(String value, String expected) {
        assertThat(urls.rewriteReference(value)).isEqualTo(expected);
    }

    @Test
    void everyTargetOfALinkHeaderIsRewrittenAndItsParametersKept() {
        String link = "<https://api.example/api/v3/repositories/1/issues?page=2>; rel=\"next\", "
                + "<https://api.example/api/v3/repositories/1/issues?page=5>; rel=\"last\"; title=\"a <b> \\\" c\", "
                + "<https://elsewhere.example/x>; rel=\"help\"";
        assertThat(urls.rewriteLink(link)).isEqualTo("<" + GATEWAY + "/repositories/1/issues?page=2>; rel=\"next\", "
                + "<" + GATEWAY + "/repositories/1/issues?page=5>; rel=\"last\"; title=\"a <b> \\\" c\", "
                + "<https://elsewhere.example/x>; rel=\"help\"");
    }

    @Test
    void aValueWithNothingToRewriteIsTheSameString() {
        String link = "<https://elsewhere.example/x?page=2>; rel=\"next\"";
        assertThat(urls.rewriteLink(link)).isSameAs(link);
    }

    @Test
    void anUpstreamAtTheRootOwnsEveryPathOfItsOrigin() {
        UpstreamUrls root = new UpstreamUrls(URI.create("http://127.0.0.1:8081"), URI.create("http://127.0.0.1:8081/a"), GATEWAY);
        assertThat(root.rewriteReference("http://127.0.0.1:8081/user/repos?page=2")).isEqualTo(GATEWAY + "/user/repos?page=2");
        assertThat(root.rewriteReference("http://127.0.0.1:8082/user/repos")).isEqualTo("http://127.0.0.1:8082/user/repos");
    }
}
