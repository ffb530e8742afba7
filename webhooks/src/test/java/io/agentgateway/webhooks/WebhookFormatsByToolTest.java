package io.agentgateway.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.schemas.Tool;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each tool whose profile sends webhooks has exactly one format, which reads the header names of that profile. */
class WebhookFormatsByToolTest {
    private final WebhookFormats formats = new WebhookFormats(List.of(new CodeHostFormat(),
            new IssueTrackerFormat(Duration.ofMinutes(5), Duration.ofMinutes(1))));

    @Test
    void everyToolThatSendsWebhooksHasItsFormat() {
        for (ToolProfile profile : ToolProfiles.where(ToolProfile::sendsWebhooks)) {
            assertThat(formats.of(profile.tool()).tool()).isEqualTo(profile.tool());
        }
        assertThatThrownBy(() -> formats.of(Tool.CHAT)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMissingOrStrayFormatStopsTheStart() {
        assertThatThrownBy(() -> new WebhookFormats(List.of(new CodeHostFormat())))
                .hasMessage("no webhook format for issue_tracker, whose profile sends webhooks (WebhookFormats)");
        assertThatThrownBy(() -> new WebhookFormats(List.of(new CodeHostFormat(), new CodeHostFormat())))
                .hasMessage("two webhook formats for code_host");
    }

    @Test
    void theFormatsReadTheirProfilesHeaderNames() {
        ToolProfile.Webhooks codeHost = ToolProfiles.of(Tool.CODE_HOST).webhooks().orElseThrow();
        assertThat(CodeHostFormat.SIGNATURE).isEqualTo(codeHost.signature().neutral()).isEqualTo("X-Code-Host-Signature-256");
        assertThat(CodeHostFormat.DELIVERY).isEqualTo("X-Code-Host-Delivery");
        assertThat(CodeHostFormat.EVENT).isEqualTo("X-Code-Host-Event");
        assertThat(IssueTrackerFormat.SIGNATURE).isEqualTo("Issue-Tracker-Signature");
        assertThat(IssueTrackerFormat.DELIVERY).isEqualTo("Issue-Tracker-Delivery");
        assertThat(IssueTrackerFormat.EVENT).isEqualTo("Issue-Tracker-Event");
    }
}
