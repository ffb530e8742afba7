package io.agentgateway.projector.consume;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.stereotype.Component;

/**
 * The offset of the last events-topic record handled (projected or skipped) per partition, after its
 * transaction committed; also the gauge {@code gateway.projector.last.projected.offset}. Compared
 * with the topic's end offsets it is the projection lag.
 */
@Component
public class ProjectionProgress {
    public static final String LAST_PROJECTED_OFFSET = "gateway.projector.last.projected.offset";

    private final MeterRegistry registry;
    private final Map<Integer, AtomicLong> lastOffsets = new ConcurrentHashMap<>();

    public ProjectionProgress(MeterRegistry registry) {
        this.registry = registry;
    }

    public OptionalLong lastProjectedOffset(int partition) {
        AtomicLong offset = lastOffsets.get(partition);
        return offset == null ? OptionalLong.empty() : OptionalLong.of(offset.get());
    }

    /** A snapshot, partition to offset. */
    public Map<Integer, Long> lastProjectedOffsets() {
        Map<Integer, Long> snapshot = new TreeMap<>();
        lastOffsets.forEach((partition, offset) -> snapshot.put(partition, offset.get()));
        return snapshot;
    }

    void handled(List<? extends ConsumerRecord<?, ?>> records) {
        for (ConsumerRecord<?, ?> record : records) {
            lastOffsets.computeIfAbsent(record.partition(), this::registerGauge)
                    .accumulateAndGet(record.offset(), Math::max);
        }
    }

    private AtomicLong registerGauge(int partition) {
        AtomicLong offset = new AtomicLong(-1);
        Gauge.builder(LAST_PROJECTED_OFFSET, offset, AtomicLong::get)
                .tag("partition", Integer.toString(partition))
                .register(registry);
        return offset;
    }
}
