package io.agentgateway.schemas.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.notification.NotificationRequested;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the redrive decides before it reads a record: which dead letters a filter takes, and that a position which
 * names no dead-letter record is answered "none" without asking Kafka (an admin's id from a URL is such an input).
 * Sending again against a real broker is tested end to end by the launcher's {@code RedriveNotificationsCommandTest}
 * and the admin API's dead-letter tests.
 */
class DeadLetterRedriveTest {
    /** Nothing listens here: a test that reached Kafka would fail on its timeout instead of answering at once. */
    private static final String NO_BROKER = "127.0.0.1:1";

    @Test
    void aFilterMatchesOnKindAndWorkspaceAndAnEmptyPartMatchesAny() {
        NotificationRequested killSwitch = notification("kill_switch", "ws-1");
        assertThat(DeadLetterRedrive.Filter.all().matches(killSwitch)).isTrue();
        assertThat(new DeadLetterRedrive.Filter(Optional.empty(), Optional.of("kill_switch"), Optional.of("ws-1"))
                .matches(killSwitch)).isTrue();
        assertThat(new DeadLetterRedrive.Filter(Optional.empty(), Optional.of("approval_requested"), Optional.empty())
                .matches(killSwitch)).isFalse();
        assertThat(new DeadLetterRedrive.Filter(Optional.empty(), Optional.empty(), Optional.of("ws-2"))
                .matches(killSwitch)).isFalse();
    }

    @Test
    void aPositionThatNamesNoRecordIsNoneWithoutAskingKafka() {
        for (String position : new String[] {null, "", "7", "-3", "0-", "a-1", "0-1-2", "1234567890-1", "0-12345678901234567890"}) {
            long started = System.nanoTime();
            assertThat(DeadLetterRedrive.redriveOne(NO_BROKER, "ws-1", position, Duration.ofSeconds(30)))
                    .as("position %s", position).isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("answered without a broker").isLessThan(Duration.ofSeconds(5));
        }
    }

    private static NotificationRequested notification(String kind, String workspaceId) {
        return new NotificationRequested(NotificationRequested.CURRENT_VERSION, "n-1", workspaceId, "c-1", kind,
                Instant.parse("2030-01-01T00:00:00Z"), "subject", "text", List.of(), null, Map.of());
    }
}
