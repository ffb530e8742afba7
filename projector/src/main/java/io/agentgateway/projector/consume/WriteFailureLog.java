package io.agentgateway.projector.consume;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the log says while PostgreSQL does not take the projector's batches: one line when the first batch
 * fails, one a minute while they go on failing, one when a batch lands again, instead of a line with a stack
 * trace per retry (every 5 s at most, for as long as the outage lasts). A failure PostgreSQL explains (an
 * SQLState: unreachable, shutting down, a table missing) is a WARN with that SQLState and no stack: the
 * projector retries it by design and loses nothing. A failure without one is a defect of ours: ERROR, with
 * its stack the first time. Shared by the consumer threads, hence synchronized.
 */
final class WriteFailureLog {
    private static final Logger log = LoggerFactory.getLogger(WriteFailureLog.class);
    private static final Duration REPEAT_EVERY = Duration.ofMinutes(1);

    private final Clock clock;
    private Instant failingSince;
    private Instant lastReported;
    private long failedAttempts;

    WriteFailureLog(Clock clock) {
        this.clock = clock;
    }

    synchronized void failed(int events, Throwable failure) {
        Instant now = clock.instant();
        failedAttempts++;
        boolean first = failingSince == null;
        if (first) {
            failingSince = now;
        } else if (Duration.between(lastReported, now).compareTo(REPEAT_EVERY) < 0) {
            return;
        }
        lastReported = now;
        String sqlState = SqlStateOf.failure(failure);
        boolean explained = !SqlStateOf.UNKNOWN.equals(sqlState);
        if (explained && first) {
            log.warn("PostgreSQL did not take a batch of {} events (SQLState {}, {}); retrying with back-off, nothing is skipped",
                    events, sqlState, failure.getClass().getSimpleName());
        } else if (explained) {
            log.warn("PostgreSQL still does not take a batch of {} events (SQLState {}, {}); failing for {} s, {} attempts",
                    events, sqlState, failure.getClass().getSimpleName(), secondsSince(now), failedAttempts);
        } else if (first) {
            log.error("Could not write a batch of {} events; retrying with back-off, nothing is skipped", events, failure);
        } else {
            log.error("Still cannot write a batch of {} events ({}); failing for {} s, {} attempts",
                    events, failure.getClass().getName(), secondsSince(now), failedAttempts);
        }
    }

    synchronized void landed() {
        if (failingSince == null) {
            return;
        }
        log.info("PostgreSQL takes the projector's batches again, after {} s and {} failed attempts",
                secondsSince(clock.instant()), failedAttempts);
        failingSince = null;
        lastReported = null;
        failedAttempts = 0;
    }

    private long secondsSince(Instant now) {
        return Duration.between(failingSince, now).toSeconds();
    }
}
