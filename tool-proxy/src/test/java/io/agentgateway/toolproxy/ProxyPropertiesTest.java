package io.agentgateway.toolproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A held call's status is one no client takes for a success: 202 (as before issue 16) or a registered 4xx. */
class ProxyPropertiesTest {

    @ParameterizedTest
    @ValueSource(ints = {403, 202, 409, 423, 428})
    void aHeldStatusOfTheAllowedKindIsTaken(int status) {
        assertThat(properties(status).heldStatus()).isEqualTo(status);
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 204, 302, 499, 500, 503})
    void anyOtherHeldStatusStopsTheStart(int status) {
        assertThatThrownBy(() -> properties(status)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gateway.proxy.held-status");
    }

    private static ProxyProperties properties(int heldStatus) {
        return new ProxyProperties(Duration.ofSeconds(30), Duration.ofSeconds(5), null, heldStatus, " ");
    }
}
