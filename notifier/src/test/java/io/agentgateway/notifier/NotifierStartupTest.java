package io.agentgateway.notifier;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.embedded.EmbeddedPostgresServer;
import io.agentgateway.embedded.SharedTestInfra;
import io.agentgateway.notifier.testing.Notifications;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Misconfiguration stops the notifier at start-up with a message that says what to set. */
class NotifierStartupTest {

    @Test
    void refusesToStartWithoutTheSecretKey() {
        List<String> args = baseArgs();
        args.add("--spring.mail.host=127.0.0.1");

        assertThatThrownBy(() -> NotifierApplication.application().run(args.toArray(String[]::new)).close())
                .rootCause()
                .hasMessageContaining("gateway.secrets.key must be set to base64 of 32 random bytes");
    }

    @Test
    void refusesToStartWithoutAnSmtpServer() {
        List<String> args = baseArgs();
        args.add("--gateway.secrets.key=" + Notifications.newSecretKey());

        assertThatThrownBy(() -> NotifierApplication.application().run(args.toArray(String[]::new)).close())
                .rootCause()
                .hasMessageContaining("spring.mail.host is not set");
    }

    @Test
    void refusesToStartWithAPublicBaseUrlThatIsNoHttpUrl() {
        List<String> args = baseArgs();
        args.add("--gateway.secrets.key=" + Notifications.newSecretKey());
        args.add("--spring.mail.host=127.0.0.1");
        args.add("--gateway.notifier.public-base-url=gateway.example.test/admin?x=1");

        assertThatThrownBy(() -> NotifierApplication.application().run(args.toArray(String[]::new)).close())
                .rootCause()
                .hasMessageContaining("gateway.notifier.public-base-url must be an absolute http or https URL");
    }

    private static List<String> baseArgs() {
        EmbeddedPostgresServer postgres = SharedTestInfra.postgres();
        List<String> args = new ArrayList<>();
        args.add("--spring.main.banner-mode=off");
        args.add("--spring.kafka.bootstrap-servers=" + SharedTestInfra.kafka().bootstrapServers());
        args.add("--spring.datasource.url=" + postgres.createDatabase("notifier_startup"));
        args.add("--spring.datasource.username=" + postgres.username());
        args.add("--spring.datasource.password=" + postgres.password());
        args.add("--gateway.notifier.group-id=notifier-startup-" + UUID.randomUUID());
        return args;
    }
}
