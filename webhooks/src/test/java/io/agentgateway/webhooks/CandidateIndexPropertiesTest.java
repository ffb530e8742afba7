package io.agentgateway.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.actiongate.connection.CandidateIndexProperties;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * {@code gateway.webhooks.candidate-index-ttl} lives in action-gate's shared {@code connection} package (for
 * {@code WebhookRouting}) while the webhooks' other {@code gateway.webhooks.*} keys are {@link WebhookProperties}: the
 * same name, default and check, and both bind from the same prefix. Here because only this module sees both.
 */
class CandidateIndexPropertiesTest {

    @Test
    void theTtlKeepsItsNameAndDefault() {
        assertThat(bind(Map.of()).candidateIndexTtl()).isEqualTo(Duration.ofMillis(500));
        assertThat(bind(Map.of("gateway.webhooks.candidate-index-ttl", "PT0S")).candidateIndexTtl()).isZero();
        assertThat(bind(Map.of("gateway.webhooks.candidate-index-ttl", "PT2S")).candidateIndexTtl())
                .isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void theWebhooksOtherSettingsBindFromTheSamePrefix() {
        Map<String, String> settings = Map.of("gateway.webhooks.candidate-index-ttl", "PT2S",
                "gateway.webhooks.max-body-bytes", "1000");
        assertThat(bind(settings).candidateIndexTtl()).isEqualTo(Duration.ofSeconds(2));
        WebhookProperties webhooks = new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("gateway.webhooks", WebhookProperties.class);
        assertThat(webhooks.maxBodyBytes()).isEqualTo(1000);
    }

    @Test
    void aNegativeTtlStopsTheStart() {
        assertThatThrownBy(() -> bind(Map.of("gateway.webhooks.candidate-index-ttl", "-PT1S")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessage("gateway.webhooks.candidate-index-ttl must not be negative");
    }

    private static CandidateIndexProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("gateway.webhooks", CandidateIndexProperties.class);
    }
}
