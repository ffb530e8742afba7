package io.agentgateway.actiongate.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.secret.ConfiguredSecretBox;
import io.agentgateway.httpedge.secret.SecretsProperties;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.SealedSecret;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Opening a connection's secrets for one use: real sealing, failing closed without showing them. */
class ConnectionSecretsTest {
    private static final String OTHER_KEY = "OTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTBmZWRjYmE=";
    private static final String TOKEN = "ghp_plainAccessTokenOfTheCodeHost";
    private static final String WEBHOOK_SECRET = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private final SecretBox box = SecretBox.fromBase64Key(RunningIngress.SECRETS_KEY);
    private final UUID workspace = UUID.randomUUID();

    private static ConnectionSecrets withKey(String key) {
        return new ConnectionSecrets(new ConfiguredSecretBox(new SecretsProperties(key)));
    }

    @Test
    void opensWhatWasSealedWithTheKey() {
        assertThat(withKey(RunningIngress.SECRETS_KEY).open(workspace, Tool.CODE_HOST, box.sealSecret(TOKEN), "access token")
                .reveal()).isEqualTo(TOKEN);
        assertThat(withKey(RunningIngress.SECRETS_KEY).open(workspace, Tool.CODE_HOST, null, "access token")).isNull();
    }

    @Test
    void aSecretSealedWithAnotherKeyFailsClosedWithoutShowingIt() {
        SealedSecret sealed = box.sealSecret(TOKEN);
        assertThatThrownBy(() -> withKey(OTHER_KEY).open(workspace, Tool.INTERNAL_API, sealed, "access token"))
                .isInstanceOf(UnreadableSecretException.class)
                .hasMessage("the stored access token of internal_api in workspace " + workspace
                        + " cannot be opened with gateway.secrets.key")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(sealed.value()).doesNotContain(TOKEN));
    }

    @Test
    void withoutAKeyAStoredSecretCannotBeUsed() {
        assertThatThrownBy(() -> withKey(null).open(workspace, Tool.CODE_HOST, box.sealSecret(WEBHOOK_SECRET), "webhook secret"))
                .isInstanceOf(UnreadableSecretException.class)
                .hasMessage("the stored webhook secret of code_host in workspace " + workspace
                        + " cannot be opened: gateway.secrets.key is not set");
    }
}
