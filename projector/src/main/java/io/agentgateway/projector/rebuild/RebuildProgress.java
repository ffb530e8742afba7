package io.agentgateway.projector.rebuild;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How far a rebuild is, reported every {@link RebuildSettings#progressInterval()}.
 *
 * @param phase          what it is doing
 * @param eventsRead     records read from the events topic so far (projected or skipped)
 * @param eventsPerSecond records read per second since the previous report
 * @param partitions     per partition: the next offset to read and the end of the log as last seen
 * @param elapsed        since the rebuild started
 */
public record RebuildProgress(Phase phase, long eventsRead, double eventsPerSecond, List<PartitionProgress> partitions,
        Duration elapsed) {

    public enum Phase {
        /** Reading the log into the fresh tables while the live projector goes on. */
        REPLAYING,
        /** Holding the live projector for the last events and the swap of the tables. */
        SWITCHING
    }

    /** @param position the next offset to read; {@code endOffset} the end of the partition when last asked */
    public record PartitionProgress(int partition, long position, long endOffset) {}

    public long offsetsRead() {
        return partitions.stream().mapToLong(p -> Math.min(p.position(), p.endOffset())).sum();
    }

    public long endOffsets() {
        return partitions.stream().mapToLong(PartitionProgress::endOffset).sum();
    }

    /** Share of the log read so far, by offsets (the log may still grow). */
    public double percent() {
        long end = endOffsets();
        return end == 0 ? 100.0 : 100.0 * offsetsRead() / end;
    }

    /** One line for an operator. */
    public String describe() {
        String perPartition = partitions.stream()
                .map(p -> p.partition() + ":" + p.position() + "/" + p.endOffset())
                .collect(Collectors.joining(" "));
        return String.format(Locale.ROOT, "%-9s %,d events read, %,d/%,d offsets (%.1f%%), %,.0f events/s, %ds  [%s]",
                phase.name().toLowerCase(Locale.ROOT), eventsRead, offsetsRead(), endOffsets(), percent(),
                eventsPerSecond, elapsed.toSeconds(), perPartition);
    }
}
