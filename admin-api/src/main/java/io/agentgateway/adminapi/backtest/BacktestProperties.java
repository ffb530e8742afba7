package io.agentgateway.adminapi.backtest;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.backtest.*}: limits of {@code POST /admin/v1/workspaces/{id}/backtests}.
 *
 * @param timeout         how long one back-test may read the event log before it fails with 504
 * @param connectTimeout  how long Kafka may take to answer before the log counts as unavailable (503)
 * @param maxConcurrent   back-tests running at once on this instance; more get 429 (each one keeps a
 *                        core busy, and the decision path shares the machine)
 * @param examples        example audit ids per group of changes
 */
@ConfigurationProperties("gateway.backtest")
public record BacktestProperties(
        @DefaultValue("PT60S") Duration timeout,
        @DefaultValue("PT5S") Duration connectTimeout,
        @DefaultValue("1") int maxConcurrent,
        @DefaultValue("5") int examples) {

    public BacktestProperties {
        if (timeout.isZero() || timeout.isNegative() || connectTimeout.isZero() || connectTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.backtest.timeout and connect-timeout must be positive");
        }
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("gateway.backtest.max-concurrent must be at least 1");
        }
        if (examples < 0) {
            throw new IllegalArgumentException("gateway.backtest.examples must be >= 0");
        }
    }
}
