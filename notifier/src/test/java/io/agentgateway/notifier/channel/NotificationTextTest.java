package io.agentgateway.notifier.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.event.NotificationRequested;
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

    private static NotificationRequested notification(String subject, Map<String, String> details) {
        return new NotificationRequested(1, "n-1", "w-1", "c-1", "kill_switch", null, subject, "text",
                List.of("a@example.test"), null, details);
    }
}
