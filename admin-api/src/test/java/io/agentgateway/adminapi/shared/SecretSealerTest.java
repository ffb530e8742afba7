package io.agentgateway.adminapi.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.secret.ConfiguredSecretBox;
import io.agentgateway.httpedge.secret.SecretsProperties;
import io.agentgateway.httpedge.web.ApiException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class SecretSealerTest {

    @Test
    void withoutASecretsKeyNothingSecretIsSealedOrSent() {
        SecretSealer sealer = new SecretSealer(new ConfiguredSecretBox(new SecretsProperties(null)));

        assertThatThrownBy(sealer::requireConfigured)
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
                    assertThat(e.getMessage()).isEqualTo("Secret storage is not configured");
                });
        assertThatThrownBy(() -> sealer.seal("ghp_theAccessTokenThatMustNeverBeShown")).isInstanceOf(ApiException.class);
    }
}
