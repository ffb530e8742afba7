package io.agentgateway.gatewayclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-flight journal on a real file: what one process journaled and never released, the next one (same boot)
 * finds; nothing it released, nothing half-written, nothing from before a reboot. A kill -9 of a real ingress process
 * is {@code IngressCrashEndToEndTest} (launcher) and the fault suite's "kill -9 ingress-1".
 */
class InFlightJournalTest {
    private static final Optional<String> BOOT = Optional.of("0f1e2d3c-boot");
    private static final Instant ACCEPTED = Instant.parse("2026-11-27T18:00:00.123456Z");

    @TempDir
    Path dir;

    private static String id() {
        return UUID.randomUUID().toString();
    }

    @Test
    void whatAProcessNeverReleasedIsUnansweredForTheNextAndNothingElse() {
        String unanswered = id();
        String workspace = id();
        try (InFlightJournal journal = InFlightJournal.open(dir, 3, 8, BOOT)) {
            assertThat(journal.unanswered()).isEmpty();
            journal.record(id(), id(), "corr-answered", ACCEPTED).release();
            journal.record(unanswered, workspace, "corr-1", ACCEPTED);
            assertThat(journal.inUse()).isEqualTo(1);
        }

        try (InFlightJournal next = InFlightJournal.open(dir, 3, 8, BOOT)) {
            assertThat(next.file().getFileName().toString()).isEqualTo("ingress-3.inflight");
            assertThat(next.unanswered()).hasSize(1).first().satisfies(entry -> {
                assertThat(entry.commandId()).isEqualTo(unanswered);
                assertThat(entry.workspaceId()).isEqualTo(workspace);
                assertThat(entry.correlationId()).isEqualTo("corr-1");
                assertThat(entry.acceptedAt()).isEqualTo(ACCEPTED);
            });
            assertThat(next.inUse()).as("held until its report is acknowledged").isEqualTo(1);
            next.unanswered().get(0).entry().release();
            assertThat(next.inUse()).isZero();
        }

        try (InFlightJournal third = InFlightJournal.open(dir, 3, 8, BOOT)) {
            assertThat(third.unanswered()).as("reported once acknowledged, never again").isEmpty();
        }
    }

    @Test
    void aReleaseIsIdempotentAndFreesTheSlotForAnother() {
        try (InFlightJournal journal = InFlightJournal.open(dir, 0, 2, BOOT)) {
            InFlightJournal.Entry first = journal.record(id(), id(), null, ACCEPTED);
            journal.record(id(), id(), null, ACCEPTED);
            assertThat(journal.record(id(), id(), null, ACCEPTED)).as("full: not journaled, the caller not failed")
                    .isSameAs(InFlightJournal.Entry.NONE);

            first.release();
            first.release();

            assertThat(journal.inUse()).isEqualTo(1);
            assertThat(journal.record(id(), id(), null, ACCEPTED)).isNotSameAs(InFlightJournal.Entry.NONE);
            assertThat(journal.inUse()).isEqualTo(2);
        }
    }

    @Test
    void afterARebootNothingIsTrustedAndWithoutABootIdNeither() {
        try (InFlightJournal journal = InFlightJournal.open(dir, 0, 8, BOOT)) {
            journal.record(id(), id(), "c", ACCEPTED);
        }
        // the page cache did not survive a reboot: the file on disk may hold entries long answered
        try (InFlightJournal rebooted = InFlightJournal.open(dir, 0, 8, Optional.of("another-boot"))) {
            assertThat(rebooted.unanswered()).isEmpty();
            assertThat(rebooted.inUse()).isZero();
            rebooted.record(id(), id(), "c", ACCEPTED);
        }
        try (InFlightJournal unknown = InFlightJournal.open(dir, 0, 8, Optional.empty())) {
            assertThat(unknown.unanswered()).isEmpty();
        }
    }

    @Test
    void aHalfWrittenEntryIsIgnored() throws IOException {
        String whole = id();
        try (InFlightJournal journal = InFlightJournal.open(dir, 0, 8, BOOT)) {
            journal.record(id(), id(), "torn", ACCEPTED);
            journal.record(whole, id(), "whole", ACCEPTED);
        }
        // the first slot's payload changed after its checksum was written (a process that died mid-write)
        try (FileChannel file = FileChannel.open(dir.resolve("ingress-0.inflight"), StandardOpenOption.WRITE)) {
            file.write(ByteBuffer.wrap(new byte[] {0x7f, 0x7f}), 4096 + 20);
        }

        try (InFlightJournal next = InFlightJournal.open(dir, 0, 8, BOOT)) {
            assertThat(next.unanswered()).extracting(InFlightJournal.Unanswered::commandId).containsExactly(whole);
        }
    }

    @Test
    void idsTooLongForASlotAreNotJournaledAndAnOversizedCorrelationIdIsLeftOut() {
        try (InFlightJournal journal = InFlightJournal.open(dir, 0, 8, BOOT)) {
            assertThat(journal.record("x".repeat(300), id(), null, ACCEPTED)).isSameAs(InFlightJournal.Entry.NONE);
            journal.record("cmd", "ws", "c".repeat(400), ACCEPTED.truncatedTo(ChronoUnit.SECONDS));
        }
        try (InFlightJournal next = InFlightJournal.open(dir, 0, 8, BOOT)) {
            assertThat(next.unanswered()).singleElement().satisfies(entry -> {
                assertThat(entry.commandId()).isEqualTo("cmd");
                assertThat(entry.correlationId()).isNull();
            });
        }
    }

    @Test
    void anotherLayoutStartsAfreshAndASecondUserOfTheFileIsRefused() {
        try (InFlightJournal journal = InFlightJournal.open(dir, 0, 8, BOOT)) {
            journal.record(id(), id(), "c", ACCEPTED);
            assertThatThrownBy(() -> InFlightJournal.open(dir, 0, 8, BOOT))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("in use by another ingress process");
        }
        try (InFlightJournal resized = InFlightJournal.open(dir, 0, 16, BOOT)) {
            assertThat(resized.unanswered()).isEmpty();
        }
    }
}
