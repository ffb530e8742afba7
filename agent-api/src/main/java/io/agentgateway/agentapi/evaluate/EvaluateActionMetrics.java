package io.agentgateway.agentapi.evaluate;

import io.agentgateway.gatewayclient.DecisionServiceUnavailableException;
import io.agentgateway.gatewayclient.DecisionTimeoutException;
import io.agentgateway.httpedge.web.ApiException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * Timer {@code gateway.ingress.evaluate}, tagged {@code outcome} = the decision (allow, block,
 * require_approval) or the failure (an HTTP status such as 400/401, unavailable, timeout, error).
 */
@Component
class EvaluateActionMetrics {
    static final String TIMER = "gateway.ingress.evaluate";

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Timer> timers = new ConcurrentHashMap<>();

    EvaluateActionMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void record(String outcome, long startNanos) {
        timers.computeIfAbsent(outcome, o -> Timer.builder(TIMER)
                        .description("evaluate-action requests, from arrival to response")
                        .tag("outcome", o)
                        // buckets, so that dashboards can show the percentiles across replicas
                        .publishPercentileHistogram()
                        .minimumExpectedValue(Duration.ofMillis(1))
                        .maximumExpectedValue(Duration.ofSeconds(10))
                        .register(registry))
                .record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    static String outcomeOf(Throwable failure) {
        if (failure instanceof ApiException api) {
            return Integer.toString(api.status().value());
        }
        if (failure instanceof DecisionServiceUnavailableException) {
            return "unavailable";
        }
        if (failure instanceof DecisionTimeoutException) {
            return "timeout";
        }
        return "error";
    }
}
