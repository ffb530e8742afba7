package io.agentgateway.projector.consume;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The projector's meters: events projected, events skipped by reason, batch writes that failed and
 * are being retried (the database is down), and the projection delay (from the command's acceptance
 * to the commit of its rows: the audit-row freshness the gateway promises, within a second at p99).
 */
@Component
public class ProjectionMetrics {
    public static final String PROJECTED = "gateway.projector.events.projected";
    public static final String SKIPPED = "gateway.projector.events.skipped";
    public static final String DELAY = "gateway.projector.projection.delay";
    public static final String BATCHES_FAILED = "gateway.projector.batches.failed";

    private final Counter projected;
    private final Map<SkipReason, Counter> skipped = new EnumMap<>(SkipReason.class);
    private final Timer delay;
    private final Counter batchesFailed;

    public ProjectionMetrics(MeterRegistry registry) {
        this.projected = Counter.builder(PROJECTED).description("events written to the read models").register(registry);
        for (SkipReason reason : SkipReason.values()) {
            skipped.put(reason, Counter.builder(SKIPPED).tag("reason", reason.tag())
                    .description("events left out of the read models").register(registry));
        }
        this.delay = Timer.builder(DELAY).description("from the command's acceptance to the commit of its rows")
                // buckets, so a monitoring system can tell the p99 and whether it is within a second
                .publishPercentileHistogram()
                .serviceLevelObjectives(Duration.ofSeconds(1))
                .register(registry);
        this.batchesFailed = Counter.builder(BATCHES_FAILED)
                .description("batch writes that failed for a reason other than the data (database unreachable...) and are retried")
                .register(registry);
    }

    void projected(PlannedEvent event, Instant committedAt) {
        projected.increment();
        Instant occurredAt = event.envelope().occurredAt();
        if (!committedAt.isBefore(occurredAt)) {
            delay.record(Duration.between(occurredAt, committedAt));
        }
    }

    void batchFailed() {
        batchesFailed.increment();
    }

    void skipped(SkipReason reason) {
        skipped.get(reason).increment();
    }
}
