package io.agentgateway.launcher;

import static io.agentgateway.launcher.GatewayHarness.client;
import static io.agentgateway.launcher.GatewayHarness.killSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.agentgateway.launcher.GatewayHarness.TestWorkspace;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue test 5: a kill-switch call sends an email to the workspace's admins and owners through a
 * real SMTP server, and POSTs to the chat incoming webhook when one is configured.
 */
class KillSwitchNotificationTest {
    private HttpServer chat;
    private final List<String> chatBodies = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startChatWebhook() throws Exception {
        chat = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        chat.createContext("/hooks/incoming", exchange -> {
            chatBodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        chat.start();
    }

    @AfterEach
    void stopChatWebhook() {
        chat.stop(0);
    }

    /** Distinct emails addressed to {@code address}: GreenMail stores one copy per recipient. */
    private static List<MimeMessage> mailTo(String address) {
        Map<String, MimeMessage> byMessageId = new java.util.LinkedHashMap<>();
        for (MimeMessage m : GatewayHarness.smtp().getReceivedMessages()) {
            try {
                if (Arrays.stream(m.getRecipients(Message.RecipientType.TO)).anyMatch(a -> a.toString().contains(address))) {
                    byMessageId.putIfAbsent(m.getMessageID(), m);
                }
            } catch (jakarta.mail.MessagingException e) {
                throw new IllegalStateException(e);
            }
        }
        return List.copyOf(byMessageId.values());
    }

    @Test
    void enableEmailsAdminsAndOwnersAndPostsToChat() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String adminEmail = "admin-" + ws.id() + "@test.local";
        assertThat(client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/admin-" + ws.id(), ws.ownerJwt(),
                Map.of("email", adminEmail, "role", "admin")).status()).isIn(200, 201);
        String memberEmail = "member-" + ws.id() + "@test.local";
        assertThat(client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/member-" + ws.id(), ws.ownerJwt(),
                Map.of("email", memberEmail, "role", "member")).status()).isIn(200, 201);
        String webhook = "http://127.0.0.1:" + chat.getAddress().getPort() + "/hooks/incoming";
        assertThat(client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/notification-settings", ws.ownerJwt(),
                Map.of("chatWebhookUrl", webhook, "emailEnabled", true)).status()).isIn(200, 204);

        assertThat(killSwitch(ws, "enable", null).status()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(mailTo(ws.ownerEmail())).hasSize(1);
            assertThat(mailTo(adminEmail)).hasSize(1);
            assertThat(chatBodies).hasSize(1);
        });
        MimeMessage mail = mailTo(ws.ownerEmail()).get(0);
        assertThat(mail.getSubject()).containsIgnoringCase("kill switch");
        assertThat(mailTo(memberEmail)).as("plain members are not alerted").isEmpty();
        assertThat(chatBodies.get(0)).contains("\"text\"").containsIgnoringCase("kill switch");
        // the settings API never returns the webhook URL
        var state = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/kill-switch", ws.ownerJwt(), null);
        assertThat(state.rawBody()).doesNotContain(webhook);
    }

    @Test
    void withoutAChatWebhookOnlyEmailIsSent() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(killSwitch(ws, "pause_tool", "code_host").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(mailTo(ws.ownerEmail())).hasSize(1));
        assertThat(chatBodies).isEmpty();
    }
}
