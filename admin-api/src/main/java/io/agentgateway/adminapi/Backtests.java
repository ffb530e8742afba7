package io.agentgateway.adminapi;

import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.backtest.BacktestRequest;
import io.agentgateway.backtest.Backtester;
import io.agentgateway.backtest.EventLogTimeoutException;
import io.agentgateway.backtest.EventLogUnavailableException;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * Back-tests, for every client of them (the admin API, the console's "what it would have done"): a workspace's recorded
 * evaluations decided again under a candidate policy set. The read of the log runs off the event loop, bounded in time
 * ({@code gateway.backtest.timeout}) and in how many run at once on this instance ({@code max-concurrent}: more are
 * 429), whoever asks.
 */
@Component
public class Backtests {
    static final String UNAVAILABLE = "Event log unavailable";
    static final String TIMED_OUT = "Timed out reading the event log";
    static final String BUSY = "Another back-test is running; try again later";
    private static final Logger log = LoggerFactory.getLogger(Backtests.class);

    private final Backtester backtester;
    private final Semaphore running;
    private final Clock clock = Clock.systemUTC();
    private final ConditionEnvironment conditions;

    Backtests(Backtester backtester, BacktestProperties properties, ConditionEnvironment conditions) {
        this.backtester = backtester;
        this.running = new Semaphore(properties.maxConcurrent());
        this.conditions = conditions;
    }

    /** {@code {policies: [...], from, to?}} as {@code POST .../backtests} takes it ({@code to} defaults to now). */
    public Mono<BacktestReport> run(UUID workspaceId, ObjectNode body, String correlationId) {
        return Mono.fromCallable(() -> BacktestBodies.parse(body, workspaceId, clock, conditions))
                .flatMap(backtest -> Blocking.call(() -> runLimited(backtest)))
                .onErrorMap(EventLogUnavailableException.class, e -> failure(correlationId, HttpStatus.SERVICE_UNAVAILABLE, UNAVAILABLE, e))
                .onErrorMap(EventLogTimeoutException.class, e -> failure(correlationId, HttpStatus.GATEWAY_TIMEOUT, TIMED_OUT, e));
    }

    /**
     * Takes a slot on the thread that does the work and gives it back there: a request cancelled before
     * its work started holds nothing, and one whose client went away holds its slot until the read ends.
     */
    private BacktestReport runLimited(BacktestRequest backtest) {
        if (!running.tryAcquire()) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, BUSY);
        }
        try {
            return backtester.run(backtest);
        } finally {
            running.release();
        }
    }

    private static ApiException failure(String correlationId, HttpStatus status, String error, RuntimeException cause) {
        log.warn("[{}] back-test failed with {}: {}", correlationId, status.value(), cause.getMessage());
        return new ApiException(status, error);
    }
}
