package io.agentgateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class DerivedIdsTest {
    private static final String COMMAND_ID = "c0a8012e-5f3d-4b7a-8e91-2d6c4f0b9e13";

    @Test
    void theSameCommandIdYieldsTheSameIds() {
        assertThat(DerivedIds.auditLogId(COMMAND_ID)).isEqualTo(DerivedIds.auditLogId(COMMAND_ID));
        assertThat(DerivedIds.approvalId(COMMAND_ID)).isEqualTo(DerivedIds.approvalId(COMMAND_ID));
        assertThat(DerivedIds.notificationId(COMMAND_ID)).isEqualTo(DerivedIds.notificationId(COMMAND_ID));
        assertThat(DerivedIds.eventId(COMMAND_ID, 2)).isEqualTo(DerivedIds.eventId(COMMAND_ID, 2));
    }

    @Test
    void theIdsAreStableAcrossReleases() {
        // rows already projected are keyed by these: the derivation must never change
        assertThat(DerivedIds.auditLogId(COMMAND_ID)).isEqualTo(uuid3("audit:" + COMMAND_ID));
        assertThat(DerivedIds.approvalId(COMMAND_ID)).isEqualTo(uuid3("approval:" + COMMAND_ID));
        assertThat(DerivedIds.notificationId(COMMAND_ID)).isEqualTo(uuid3("notification:" + COMMAND_ID));
        assertThat(DerivedIds.eventId(COMMAND_ID, 0)).isEqualTo(uuid3("event-0:" + COMMAND_ID));
    }

    @Test
    void everyPurposeAndEveryEventIndexYieldsADistinctId() {
        List<String> ids = Stream.concat(
                        Stream.of(DerivedIds.auditLogId(COMMAND_ID), DerivedIds.approvalId(COMMAND_ID),
                                DerivedIds.notificationId(COMMAND_ID)),
                        IntStream.range(0, 10).mapToObj(i -> DerivedIds.eventId(COMMAND_ID, i)))
                .toList();
        assertThat(ids).doesNotHaveDuplicates();
    }

    @Test
    void differentCommandsYieldDifferentIds() {
        String other = "c0a8012e-5f3d-4b7a-8e91-2d6c4f0b9e14";
        assertThat(DerivedIds.auditLogId(other)).isNotEqualTo(DerivedIds.auditLogId(COMMAND_ID));
        assertThat(DerivedIds.approvalId(other)).isNotEqualTo(DerivedIds.approvalId(COMMAND_ID));
        assertThat(DerivedIds.notificationId(other)).isNotEqualTo(DerivedIds.notificationId(COMMAND_ID));
        assertThat(DerivedIds.eventId(other, 0)).isNotEqualTo(DerivedIds.eventId(COMMAND_ID, 0));
    }

    @Test
    void theIdsAreUuidsSoTheyFitTheReadModelsUuidColumns() {
        for (String id : List.of(DerivedIds.auditLogId(COMMAND_ID), DerivedIds.approvalId(COMMAND_ID),
                DerivedIds.notificationId(COMMAND_ID), DerivedIds.eventId(COMMAND_ID, 0))) {
            assertThat(UUID.fromString(id).toString()).isEqualTo(id);
        }
    }

    private static String uuid3(String name) {
        return UUID.nameUUIDFromBytes(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
    }
}
