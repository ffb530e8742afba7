package io.agentgateway.adminapi.backtest;

import io.agentgateway.adminapi.shared.AdminRefusals;
import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.backtest.BacktestRequest;
import io.agentgateway.backtest.Backtester;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * Back-tests, for every client of them (the admin API, the console's "what it would have done"): a workspace's recorded
 * evaluations decided again under a candidate policy set. The read of the log runs off the event loop, bounded in time
 * ({@code gateway.backtest.timeout}) and in how many run at once on this instance ({@code max-concurrent}: more are
 * 429), whoever asks.
 */
@Service
public class Backtests {
    static final String BUSY = "Another back-test is running; try again later";

    private final Backtester backtester;
    private final Semaphore running;
    private final Clock clock = Clock.systemUTC();
    private final ConditionEnvironment conditions;

    Backtests(Backtester backtester, BacktestProperties properties, ConditionEnvironment conditions) {
        this.backtester = backtester;
        this.running = new Semaphore(properties.maxConcurrent());
        this.conditions = conditions;
    }

    /**
     * {@code {policies: [...], from, to?}} as {@code POST .../backtests} takes it ({@code to} defaults to now): the
     * report, or 400 (the body), 429 (another back-test running), 503/504 (the event log cannot be read).
     */
    public Mono<BacktestReport> run(UUID workspaceId, ObjectNode body, String correlationId) {
        return AdminRefusals.eventLogRead(Mono.fromCallable(() -> BacktestBodies.parse(body, workspaceId, clock, conditions))
                .flatMap(backtest -> Blocking.call(() -> runLimited(backtest))), correlationId, "back-test");
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
}
