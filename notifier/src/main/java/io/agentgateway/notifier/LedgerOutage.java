package io.agentgateway.notifier;

import io.agentgateway.gatewayconfig.UnreachableDatabase;
import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * A notification whose delivery ledger (PostgreSQL) cannot be reached. Without the ledger nothing can be sent at
 * most once, so the notification waits; and waiting is not a delivery attempt: it must not use up the
 * notification's attempts (a 2.5-minute outage dead-lettered kill-switch alerts that way). The error handler asks
 * {@link #backOff} for each record that starts failing: for a ledger outage, retries with no end (at most every
 * 5 s, so an alert goes out within seconds of PostgreSQL's return), for anything else the configured attempts.
 */
final class LedgerOutage {
    private static final Logger log = LoggerFactory.getLogger(LedgerOutage.class);
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(5);

    private LedgerOutage() {}

    /**
     * @return the back-off for a record whose attempt failed because the ledger is unreachable (logged once per
     *         record, without a stack), or null for any other failure: the handler's own, limited back-off
     */
    static BackOff backOff(ConsumerRecord<?, ?> record, Exception failure, NotifierProperties properties) {
        if (!isLedgerUnreachable(failure)) {
            return null;
        }
        log.warn("notification at {} waits for its delivery ledger: PostgreSQL cannot be reached ({}); retried until it"
                        + " can, not counted as a delivery attempt", NotificationListener.position(record),
                UnreachableDatabase.describe(failure));
        ExponentialBackOff untilBack = new ExponentialBackOff(properties.initialBackoff().toMillis(),
                properties.backoffMultiplier());
        untilBack.setMaxInterval(Math.min(properties.maxBackoff().toMillis(), LONGEST_WAIT.toMillis()));
        return untilBack;
    }

    /** A failure of the database's reach (connection, shutdown), not of a channel or of the data. */
    static boolean isLedgerUnreachable(Throwable failure) {
        return NotificationRecoverer.deliveryFailure(failure).isEmpty() && UnreachableDatabase.isCause(failure);
    }
}
