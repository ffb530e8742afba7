package io.agentgateway.notifier.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.notifier.testing.Notifications;
import io.agentgateway.schemas.notification.ApprovalRequestNotice;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReviewLinksTest {
    private static final String WORKSPACE = "7d4f9e2a-3b1c-4e8f-9a6d-0c5b2e1f4a37";

    private static NotificationRequested approval() {
        return Notifications.approvalRequested(WORKSPACE, List.of("a@example.test"), null);
    }

    private static String approvalId(NotificationRequested n) {
        return n.details().get(ApprovalRequestNotice.APPROVAL_REQUEST_ID);
    }

    @Test
    void anApprovalRequestGetsItsConsolePageThenTheApproveRejectAndListUrlsUnderTheBaseUrl() {
        NotificationRequested n = approval();
        String base = "https://gateway.example.test/gw/admin/v1/workspaces/" + WORKSPACE + "/approvals";

        List<String> lines = ReviewLinks.under("https://gateway.example.test/gw/").lines(n);

        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).contains("reviewer, admin or owner").contains("{\"reason\": \"...\"}");
        assertThat(lines.get(1)).isEqualTo("Console: https://gateway.example.test/gw/approvals/" + WORKSPACE + "/" + approvalId(n));
        assertThat(lines.subList(2, 5)).containsExactly(
                "Approve: POST " + base + "/" + approvalId(n) + "/approve",
                "Reject: POST " + base + "/" + approvalId(n) + "/reject",
                "Pending approvals: GET " + base + "?status=pending");
    }

    @Test
    void withoutABaseUrlThePathsAloneAreShown() {
        NotificationRequested n = approval();
        assertThat(ReviewLinks.under(" ").lines(n)).contains(
                "Approve: POST /admin/v1/workspaces/" + WORKSPACE + "/approvals/" + approvalId(n) + "/approve");
        assertThat(ReviewLinks.under(null).lines(n)).isEqualTo(ReviewLinks.pathsOnly().lines(n));
    }

    @Test
    void otherKindsGetNoReviewLines() {
        NotificationRequested killSwitch = Notifications.killSwitch(WORKSPACE, List.of("a@example.test"), null);
        assertThat(ReviewLinks.under("https://gateway.example.test").lines(killSwitch)).isEmpty();
    }

    @Test
    void idsThatAreNoUuidsGetNoLinksRatherThanAPathSomeoneShaped() {
        NotificationRequested n = approval();
        Map<String, String> details = new HashMap<>(n.details());
        details.put(ApprovalRequestNotice.APPROVAL_REQUEST_ID, "../../api-keys/x");
        NotificationRequested shaped = new NotificationRequested(1, n.notificationId(), n.workspaceId(), n.correlationId(),
                n.kind(), n.occurredAt(), n.subject(), n.text(), n.emailTo(), null, details);
        assertThat(ReviewLinks.under("https://gateway.example.test").lines(shaped)).isEmpty();

        NotificationRequested otherWorkspace = new NotificationRequested(1, n.notificationId(), "acme/../x", n.correlationId(),
                n.kind(), n.occurredAt(), n.subject(), n.text(), n.emailTo(), null, n.details());
        assertThat(ReviewLinks.under("https://gateway.example.test").lines(otherWorkspace)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"gateway.example.test", "ftp://gateway.example.test", "https://gateway.example.test/?a=1",
            "https://gateway.example.test/#top", "https://", "http://exa mple.test"})
    void aBaseUrlThatIsNoAbsoluteHttpUrlIsRefused(String url) {
        assertThatThrownBy(() -> ReviewLinks.under(url))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("gateway.notifier.public-base-url must be an absolute http or https URL without query or fragment");
    }
}
