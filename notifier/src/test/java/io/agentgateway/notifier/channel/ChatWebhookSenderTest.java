package io.agentgateway.notifier.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.agentgateway.egress.EgressClients;
import io.agentgateway.notifier.testing.ChatWebhookServer;
import io.agentgateway.notifier.testing.Notifications;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.secret.SecretBox;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ChatWebhookSenderTest {
    private static final SecretBox BOX = SecretBox.fromBase64Key(Notifications.newSecretKey());
    private static ChatWebhookServer webhook;
    private static final EgressClients LOOPBACK_ALLOWED = EgressClients.of(List.of("127.0.0.0/8"), List.of(), "gw-test");
    private static ChatWebhookSender sender;

    @BeforeAll
    static void start() {
        webhook = ChatWebhookServer.start();
        sender = new ChatWebhookSender(BOX, Duration.ofSeconds(2), Duration.ofMillis(500), LOOPBACK_ALLOWED);
    }

    @AfterAll
    static void stop() {
        webhook.close();
        sender.close();
    }

    @Test
    void anAddressTheEgressPolicyRefusesIsNeverConnectedTo() {
        String path = newPath();
        try (ChatWebhookSender publicOnly = new ChatWebhookSender(BOX, Duration.ofSeconds(2), Duration.ofMillis(500),
                EgressClients.of(List.of(), List.of("hooks.chat.test=127.0.0.1"), "gw-test"))) {
            for (String url : List.of(webhook.url(path), webhook.url(path).replace("127.0.0.1", "hooks.chat.test"))) {
                assertThatThrownBy(() -> publicOnly.send(notificationFor(BOX.seal(url))))
                        .isInstanceOfSatisfying(DeliveryFailedException.class, e -> {
                            assertThat(e.mayHaveBeenDelivered()).isFalse();
                            assertThat(e.getMessage()).contains("egress policy").doesNotContain(path).doesNotContain("127.0.0.1");
                        });
            }
        }
        assertThat(webhook.posts(path)).isEmpty();
    }

    @Test
    void postsSlackStyleJsonWithTheNotification() throws Exception {
        String path = newPath();
        NotificationRequested notification = notificationFor(BOX.seal(webhook.url(path)));

        sender.send(notification);

        assertThat(webhook.posts(path)).singleElement().satisfies(post -> {
            assertThat(post.contentType()).startsWith("application/json");
            assertThat(post.text())
                    .contains("*Kill switch enabled [" + notification.notificationId() + "]*")
                    .contains("All agent activity in the workspace has been halted.")
                    .contains("• action: enable")
                    .contains("Correlation id: " + notification.correlationId());
        });
    }

    @Test
    void anErrorAnswerIsAFailureThatNamesTheStatusButNotTheUrl() {
        String path = newPath();
        webhook.failAlways(path);

        assertThatThrownBy(() -> sender.send(notificationFor(BOX.seal(webhook.url(path)))))
                .isInstanceOfSatisfying(DeliveryFailedException.class, e -> {
                    assertThat(e.mayHaveBeenDelivered()).isFalse();
                    assertThat(e.getMessage()).isEqualTo("chat webhook answered HTTP 500").doesNotContain(path);
                });
    }

    @Test
    void noAnswerInTimeMeansTheMessageMayHaveArrived() {
        String path = newPath();
        webhook.neverAnswer(path);

        assertThatThrownBy(() -> sender.send(notificationFor(BOX.seal(webhook.url(path)))))
                .isInstanceOfSatisfying(DeliveryFailedException.class, e -> {
                    assertThat(e.mayHaveBeenDelivered()).isTrue();
                    assertThat(e.getMessage()).doesNotContain(path).doesNotContain("127.0.0.1");
                });
        // on a busy machine the server thread may record the request only after the client gave up on it
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(webhook.posts(path)).hasSize(1));
    }

    @Test
    void aRefusedConnectionIsAFailureThatNamesNoHost() throws IOException {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/services/T000/B000/secret-token";

        assertThatThrownBy(() -> sender.send(notificationFor(BOX.seal(url))))
                .isInstanceOfSatisfying(DeliveryFailedException.class, e -> {
                    assertThat(e.mayHaveBeenDelivered()).isFalse();
                    assertThat(e.getMessage()).doesNotContain("secret-token").doesNotContain(String.valueOf(port));
                });
    }

    @Test
    void aUrlSealedWithAnotherKeyIsAFailure() {
        SecretBox otherKey = SecretBox.fromBase64Key(Notifications.newSecretKey());
        String path = newPath();

        assertThatThrownBy(() -> sender.send(notificationFor(otherKey.seal(webhook.url(path)))))
                .isInstanceOfSatisfying(DeliveryFailedException.class, e -> {
                    assertThat(e.mayHaveBeenDelivered()).isFalse();
                    assertThat(e.getMessage()).contains("cannot be opened");
                });
        assertThat(webhook.posts(path)).isEmpty();
    }

    @Test
    void onlyAbsoluteHttpUrlsAreUsedAndNeverQuoted() {
        for (String bad : List.of("file:///etc/passwd-secret", "ftp://example.test/secret", "not a url secret", "/relative/secret")) {
            assertThatThrownBy(() -> sender.send(notificationFor(BOX.seal(bad))))
                    .isInstanceOfSatisfying(DeliveryFailedException.class,
                            e -> assertThat(e.getMessage()).doesNotContain("secret"));
        }
    }

    @Test
    void appliesOnlyWhenAWebhookIsConfigured() {
        assertThat(sender.appliesTo(notificationFor(null))).isFalse();
        assertThat(sender.appliesTo(notificationFor(" "))).isFalse();
        assertThat(sender.appliesTo(notificationFor(BOX.seal(webhook.url("/x"))))).isTrue();
    }

    private static NotificationRequested notificationFor(String sealedUrl) {
        return Notifications.killSwitch(UUID.randomUUID().toString(), List.of(), sealedUrl);
    }

    private static String newPath() {
        return "/services/" + UUID.randomUUID();
    }
}
