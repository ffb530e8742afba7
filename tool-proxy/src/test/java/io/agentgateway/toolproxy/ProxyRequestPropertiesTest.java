package io.agentgateway.toolproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.edge.ProxyRequestProperties;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * {@code gateway.proxy.max-body-bytes} lives in the edge's settings ({@link ProxyRequestProperties}) while the proxy's
 * other {@code gateway.proxy.*} keys are {@link ProxyProperties}: the same name, default and check, and both bind from
 * the same prefix. Here because only this module sees both.
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
