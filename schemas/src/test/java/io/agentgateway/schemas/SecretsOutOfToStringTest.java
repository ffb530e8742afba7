package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Log lines print records with their generated {@code toString}. The tool-connection secrets are
 * {@code SealedSecret}s, whose toString is redacted, so no record that carries one (command, event,
 * envelope) can print it, not even sealed.
 */
class SecretsOutOfToStringTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.agentgateway.schemas.WireCases#all")
    void noSampleShowsAToolConnectionSecretInItsToString(WireCase wireCase) {
        assertThat(wireCase.sample().toString())
                .doesNotContain(WireSamples.SEALED_ACCESS_TOKEN.value())
                .doesNotContain(WireSamples.SEALED_WEBHOOK_SECRET.value());
    }

    @Test
    void theWireFormsDoCarryThemSealed() {
        // so the test above is not vacuous
        Set<String> carriers = Set.of("command_upsert_tool_connection", "command_rotate_webhook_secret",
                "event_tool_connection_upserted", "event_webhook_secret_rotated");
        List<WireCase> cases = WireCases.all().stream().filter(c -> carriers.contains(c.name())).toList();
        assertThat(cases).hasSize(carriers.size());
        cases.forEach(c -> assertThat(GatewayJson.MAPPER.writeValueAsString(c.sample()))
                .as(c.name()).contains(WireSamples.SEALED_WEBHOOK_SECRET.value()));
    }
}
