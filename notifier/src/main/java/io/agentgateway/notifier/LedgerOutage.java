package io.agentgateway.notifier;

import java.sql.SQLException;
import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
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
                + " can, not counted as a delivery attempt", NotificationListener.position(record), why(failure));
        ExponentialBackOff untilBack = new ExponentialBackOff(properties.initialBackoff().toMillis(),
                properties.backoffMultiplier());
        untilBack.setMaxInterval(Math.min(properties.maxBackoff().toMillis(), LONGEST_WAIT.toMillis()));
        return untilBack;
    }

    /** A failure of the database's reach (connection, shutdown, timeout), not of a channel or of the data. */
    static boolean isLedgerUnreachable(Throwable failure) {
        if (NotificationRecoverer.deliveryFailure(failure).isPresent()) {
            return false;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof DataAccessResourceFailureException || cause instanceof TransientDataAccessException
                    || cause instanceof RecoverableDataAccessException) {
                return true;
            }
        }
        return false;
    }

    /** The SQLState and the class of the driver's exception; not its message, which may quote a statement. */
    private static String why(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return "SQLState " + sql.getSQLState() + ", " + sql.getClass().getSimpleName();
            }
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }
}
