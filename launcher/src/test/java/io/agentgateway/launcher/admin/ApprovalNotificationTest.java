package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.action;
import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.ChatWebhook;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 3 through the running gateway: a require_approval decision emails the workspace's admins and
 * owners and posts to its chat webhook, once, with what is asked and the admin API URLs to review it;
 * the approve URL taken from the email then works. Nothing is sent for an allowed action, and the
 * payload of the held action leaves in a message only as its redacted view (issue 16): never a credential.
 */
class ApprovalNotificationTest {
    private static final Pattern APPROVE_URL = Pattern.compile("Approve: POST (\\S+/approve)");

    @RegisterExtension
    final ChatWebhook chat = new ChatWebhook("/hooks/approvals");

    @Test
    void aPendingApprovalTellsTheReviewersOnceAndItsApproveUrlWorks() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String adminEmail = GatewayHarness.addMember(ws, "admin");
        String memberEmail = GatewayHarness.addMember(ws, "member");
        chat.notifyEmailAndChatOf(ws);

        var allowed = evaluate(ws, action("docs", "page.read", "low"));
        assertThat(allowed.text("decision")).isEqualTo("allow");
        Map<String, Object> held = new LinkedHashMap<>(action("docs", "page.publish", "high"));
        held.put("payload", Map.of("page", "launch-plan", "token", "secret-token-never-mailed"));
        var evaluation = evaluate(ws, held);
        assertThat(evaluation.text("decision")).isEqualTo("require_approval");
        String approvalId = evaluation.text("approvalRequestId");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(GatewayHarness.mailTo(ws.ownerEmail())).hasSize(1);
            assertThat(GatewayHarness.mailTo(adminEmail)).hasSize(1);
            assertThat(chat.bodies()).hasSize(1);
        });
        MimeMessage mail = GatewayHarness.mailTo(ws.ownerEmail()).get(0);
        String body = mail.getContent().toString();
        assertThat(mail.getSubject()).isEqualTo("Approval needed: page.publish on docs (high risk) in workspace ws " + ws.ownerId());
        String approvalPath = "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId;
        assertThat(body).contains("Agent agent-1 asks to run page.publish on docs", "approvalRequestId: " + approvalId,
                        "Approve: POST " + GatewayHarness.gateway().baseUrl() + approvalPath + "/approve",
                        "Reject: POST " + GatewayHarness.gateway().baseUrl() + approvalPath + "/reject")
                .doesNotContain("secret-token-never-mailed");
        // issue 16: reviewers see what the agent says it will act with, its credentials taken out
        assertThat(body).contains("What will run", "launch-plan", "\"token\":\"[redacted]\"");
        assertThat(chat.bodies().get(0)).contains(approvalPath + "/approve").doesNotContain("secret-token-never-mailed");
        assertThat(GatewayHarness.mailTo(memberEmail)).as("plain members do not review").isEmpty();

        Matcher approveUrl = APPROVE_URL.matcher(body);
        assertThat(approveUrl.find()).isTrue();
        String path = approveUrl.group(1).substring(GatewayHarness.gateway().baseUrl().length());
        var approved = client().send("POST", path, ws.ownerJwt(), Map.of("reason", "approved from the email"));
        assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);
        assertThat(approved.text("status")).isEqualTo("approved");

        // the allowed action and the review told nobody anything: a later alert of the same workspace (same
        // partition, so delivered after anything queued before it) is the only other message
        assertThat(GatewayHarness.killSwitch(ws, "pause_tool", "chat").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(GatewayHarness.mailTo(ws.ownerEmail())).hasSize(2));
        assertThat(GatewayHarness.mailTo(ws.ownerEmail()).get(1).getSubject()).containsIgnoringCase("paused");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(chat.bodies()).hasSize(2));
    }
}
