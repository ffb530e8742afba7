package io.agentgateway.gatewayconfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class PublicBaseUrlsTest {

    @Test
    void unsetIsNull() {
        assertThat(PublicBaseUrls.normalized(null, "x")).isNull();
        assertThat(PublicBaseUrls.normalized("  ", "x")).isNull();
    }

    @Test
    void keepsTheUrlWithoutSurroundingSpaceOrTrailingSlashes() {
        assertThat(PublicBaseUrls.normalized(" https://gateway.example.test/gw/ ", "x")).isEqualTo("https://gateway.example.test/gw");
        assertThat(PublicBaseUrls.normalized("http://127.0.0.1:8080//", "x")).isEqualTo("http://127.0.0.1:8080");
        assertThat(PublicBaseUrls.normalized("https://gateway.example.test", "x")).isEqualTo("https://gateway.example.test");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gateway.example.test", "ftp://gateway.example.test", "https://gateway.example.test/?a=b",
            "https://gateway.example.test/#top", "https:///path", "http://exa mple.test"})
    void refusesWhatIsNoAbsoluteHttpUrlWithoutQueryOrFragmentNamingTheSetting(String url) {
        assertThatThrownBy(() -> PublicBaseUrls.normalized(url, "gateway.notifier.public-base-url"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("gateway.notifier.public-base-url must be an absolute http or https URL without query or fragment");
    }
}
