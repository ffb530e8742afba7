package io.agentgateway.projector.rebuild;

import io.agentgateway.projector.rebuild.RebuildProgress.PartitionProgress;
import io.agentgateway.projector.rebuild.RebuildProgress.Phase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;

/** Counts what the rebuild read and tells the listener every interval (asking Kafka for the end offsets then only). */
final class ProgressTracker {
    private final EventLogReader log;
    private final Consumer<RebuildProgress> listener;
    private final long intervalNanos;
    private final long startedAt = System.nanoTime();
    private long eventsRead;
    private long lastReportAt = startedAt;
    private long eventsAtLastReport;

    ProgressTracker(EventLogReader log, Consumer<RebuildProgress> listener, Duration interval) {
        this.log = log;
        this.listener = listener;
        this.intervalNanos = interval.toNanos();
    }

    void read(int records) {
        eventsRead += records;
    }

    long eventsRead() {
        return eventsRead;
    }

    Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startedAt);
    }

    /** Reports if an interval has passed since the last report. */
    void tick(Phase phase) {
        if (System.nanoTime() - lastReportAt >= intervalNanos) {
            report(phase);
        }
    }

    void report(Phase phase) {
        long now = System.nanoTime();
        double seconds = Math.max(1e-9, (now - lastReportAt) / 1e9);
        double rate = (eventsRead - eventsAtLastReport) / seconds;
        lastReportAt = now;
        eventsAtLastReport = eventsRead;
        Map<TopicPartition, Long> positions = log.positions();
        Map<TopicPartition, Long> ends = log.endOffsets();
        List<PartitionProgress> partitions = new ArrayList<>();
        positions.forEach((partition, position) ->
                partitions.add(new PartitionProgress(partition.partition(), position, ends.getOrDefault(partition, position))));
        listener.accept(new RebuildProgress(phase, eventsRead, rate, List.copyOf(partitions), elapsed()));
    }
}
