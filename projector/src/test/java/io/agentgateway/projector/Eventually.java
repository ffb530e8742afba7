package io.agentgateway.projector;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.awaitility.core.ConditionFactory;
import org.springframework.dao.EmptyResultDataAccessException;

/**
 * How long a test waits for the projector: generous, because the build machine is small and busy.
 * A row that is not there yet may make a single-row query throw: that is "not yet", not a failure.
 */
final class Eventually {
    private Eventually() {}

    static ConditionFactory eventually() {
        return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .ignoreExceptionsInstanceOf(EmptyResultDataAccessException.class);
    }
}
