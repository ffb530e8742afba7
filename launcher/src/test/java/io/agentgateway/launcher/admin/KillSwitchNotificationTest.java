package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.killSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.ChatWebhook;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue test 5: a kill-switch call sends an email to the workspace's admins and owners through a
 * real SMTP server, and POSTs to the chat incoming webhook when one is configured.
 */
class KillSwitchNotificationTest {
    @RegisterExtension
    final ChatWebhook chat = new ChatWebhook("/hooks/incoming");

    @Test
    void enableEmailsAdminsAndOwnersAndPostsToChat() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String adminEmail = GatewayHarness.addMember(ws, "admin");
        String memberEmail = GatewayHarness.addMember(ws, "member");
        String webhook = chat.notifyEmailAndChatOf(ws);

        assertThat(killSwitch(ws, "enable", null).status()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(GatewayHarness.mailTo(ws.ownerEmail())).hasSize(1);
            assertThat(GatewayHarness.mailTo(adminEmail)).hasSize(1);
            assertThat(chat.bodies()).hasSize(1);
        });
        MimeMessage mail = GatewayHarness.mailTo(ws.ownerEmail()).get(0);
        assertThat(mail.getSubject()).containsIgnoringCase("kill switch");
        assertThat(GatewayHarness.mailTo(memberEmail)).as("plain members are not alerted").isEmpty();
        assertThat(chat.bodies().get(0)).contains("\"text\"").containsIgnoringCase("kill switch");
        // the settings API never returns the webhook URL
        var state = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/kill-switch", ws.ownerJwt(), null);
        assertThat(state.rawBody()).doesNotContain(webhook);
    }

    @Test
    void withoutAChatWebhookOnlyEmailIsSent() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(killSwitch(ws, "pause_tool", "code_host").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(GatewayHarness.mailTo(ws.ownerEmail())).hasSize(1));
        assertThat(chat.bodies()).isEmpty();
    }
}
