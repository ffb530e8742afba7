package io.agentgateway.notifier.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NotificationTextTest {

    @Test
    void aSubjectIsOneLine() {
        assertThat(NotificationText.subject(notification("Kill switch\r\nBcc: everyone@example.test", Map.of())))
                .isEqualTo("Kill switch Bcc: everyone@example.test");
    }

    @Test
    void aMissingSubjectIsNamedAfterTheKind() {
        assertThat(NotificationText.subject(notification(null, Map.of()))).isEqualTo("Agent gateway notification: kill_switch");
    }

    @Test
    void chatTextEscapesEventDataSoItCannotMentionOrLink() {
        String text = NotificationText.chatText(notification("Kill switch", Map.of("agent", "<!channel> & <http://x|y>")));

        assertThat(text).contains("• agent: &lt;!channel&gt; &amp; &lt;http://x|y&gt;").doesNotContain("<!channel>");
    }

    @Test
    void detailsAreListedInKeyOrder() {
        String body = NotificationText.emailBody(notification("s", Map.of("tool", "code_host", "action", "pause_tool")));

        assertThat(body).contains("Details:\n  action: pause_tool\n  tool: code_host\n");
    }

    @Test
    void anApprovalRequestTellsHowToReviewRightAfterItsText() {
        NotificationRequested approval = io.agentgateway.notifier.testing.Notifications.approvalRequested(
                "7d4f9e2a-3b1c-4e8f-9a6d-0c5b2e1f4a37", List.of("a@example.test"), null);
        ReviewLinks links = ReviewLinks.under("https://gateway.example.test");
        String approve = links.lines(approval).get(1);

        String body = NotificationText.emailBody(approval, links);
        assertThat(body).startsWith(approval.text() + "\n\nHow to review").contains("\n  " + approve + "\n")
                .contains("  approvalRequestId: ").contains("  expiresAt: 2025-01-03T03:04:05Z");

        String chat = NotificationText.chatText(approval, links);
        assertThat(chat).contains("\n" + approve + "\n").contains("• reason: Merges need a human");
        assertThat(NotificationText.emailBody(approval)).as("without a base URL: the paths")
                .contains("Approve: POST /admin/v1/workspaces/");
    }

    @Test
    void aKillSwitchMessageHasNoReviewSection() {
        String body = NotificationText.emailBody(notification("s", Map.of()), ReviewLinks.under("https://gateway.example.test"));
        assertThat(body).doesNotContain("How to review");
    }

    private static NotificationRequested notification(String subject, Map<String, String> details) {
        return new NotificationRequested(1, "n-1", "w-1", "c-1", "kill_switch", null, subject, "text",
                List.of("a@example.test"), null, details);
    }
}
