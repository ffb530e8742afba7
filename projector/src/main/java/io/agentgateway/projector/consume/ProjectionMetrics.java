package io.agentgateway.projector.consume;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.KillSwitchChanged;
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
    /** Decisions as the audit log records them, by decision and entry point (what an operator graphs per second). */
    public static final String DECISIONS = "gateway.decisions";
    /** Kill-switch calls applied, by action. */
    public static final String KILL_SWITCH_CHANGES = "gateway.killswitch.changes";

    private final Counter projected;
    private final Map<SkipReason, Counter> skipped = new EnumMap<>(SkipReason.class);
    private final Timer delay;
    private final Counter batchesFailed;
    private final Map<Decision, Map<ActionSource, Counter>> decisions = new EnumMap<>(Decision.class);
    private final Map<KillSwitchAction, Counter> killSwitchChanges = new EnumMap<>(KillSwitchAction.class);

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
        // every series from the start, at zero: a rate and an alert see the first one
        for (Decision decision : Decision.values()) {
            Map<ActionSource, Counter> bySource = new EnumMap<>(ActionSource.class);
            for (ActionSource source : ActionSource.values()) {
                bySource.put(source, Counter.builder(DECISIONS).description("decisions recorded in the audit log")
                        .tag("decision", decision.wire()).tag("source", source.wire()).register(registry));
            }
            decisions.put(decision, bySource);
        }
        for (KillSwitchAction action : KillSwitchAction.values()) {
            killSwitchChanges.put(action, Counter.builder(KILL_SWITCH_CHANGES).description("kill-switch calls applied")
                    .tag("action", action.wire()).register(registry));
        }
    }

    void projected(PlannedEvent event, Instant committedAt) {
        projected.increment();
        if (event.envelope().event() instanceof ActionEvaluated evaluated && evaluated.decision() != null) {
            decisions.get(evaluated.decision()).get(evaluated.source() == null ? ActionSource.EVALUATE : evaluated.source()).increment();
        } else if (event.envelope().event() instanceof KillSwitchChanged changed && changed.action() != null) {
            killSwitchChanges.get(changed.action()).increment();
        }
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
