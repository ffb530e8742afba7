package io.agentgateway.httpedge.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.toolproxy.ProxyProperties;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * {@code gateway.proxy.max-body-bytes} moved from the proxy's settings to the edge's (issue 18): the same name,
 * default and check, and the proxy's other {@code gateway.proxy.*} keys still bind beside it.
 */
class ProxyRequestPropertiesTest {

    @Test
    void theBoundKeepsItsNameAndDefault() {
        assertThat(bind(Map.of()).maxBodyBytes()).isEqualTo(393216);
        assertThat(bind(Map.of("gateway.proxy.max-body-bytes", "1000")).maxBodyBytes()).isEqualTo(1000);
    }

    @Test
    void theProxysOtherSettingsBindFromTheSamePrefix() {
        Map<String, String> settings = Map.of("gateway.proxy.max-body-bytes", "1000", "gateway.proxy.upstream-timeout", "PT7S");
        assertThat(bind(settings).maxBodyBytes()).isEqualTo(1000);
        ProxyProperties proxy = new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("gateway.proxy", ProxyProperties.class);
        assertThat(proxy.upstreamTimeout()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void aBoundThatIsNotPositiveStopsTheStart() {
        assertThatThrownBy(() -> bind(Map.of("gateway.proxy.max-body-bytes", "0"))).isInstanceOf(BindException.class)
                .rootCause().hasMessage("gateway.proxy.max-body-bytes must be positive");
    }

    private static ProxyRequestProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("gateway.proxy", ProxyRequestProperties.class);
    }
}
