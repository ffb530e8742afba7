package io.agentgateway.notifier.ledger;

import io.agentgateway.notifier.channel.Channel;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The table {@code notifier.notification_deliveries}: which notification went out on which channel.
 * Every method is its own auto-committed statement on purpose: the claim must be durable before the
 * message leaves the process, so that a crash mid-send is visible to the next consumer.
 *
 * <p>Protocol: {@link #claim} (status {@code sending}) before sending; then {@link #markSent}, or
 * {@link #markFailed} when the attempt certainly did not deliver (a later retry may claim again), or
 * {@link #markUnknown} when it may have. A notification found in {@code sending} is never sent again:
 * for a security alert, one lost message (the warning in the log and the {@code unknown} row remain)
 * is the safe side compared to a duplicate on every redelivery, which teaches people to ignore alerts.
 */
public class DeliveryLedger {
    private static final int MAX_ERROR_LENGTH = 2000;

    private final JdbcClient jdbc;

    public DeliveryLedger(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public ClaimOutcome claim(String notificationId, Channel channel) {
        // Insert the claim, or take over a row whose last attempt failed; one statement, so two
        // consumers racing for the same notification cannot both win.
        Optional<Integer> claimed = jdbc.sql("""
                        insert into notifier.notification_deliveries as d
                               (notification_id, channel, status, attempts, updated_at)
                        values (:id, :channel, 'sending', 1, now())
                        on conflict (notification_id, channel) do update
                           set status = 'sending', attempts = d.attempts + 1, updated_at = now()
                         where d.status = 'failed'
                        returning d.attempts""")
                .param("id", notificationId)
                .param("channel", channel.wireName())
                .query(Integer.class)
                .optional();
        if (claimed.isPresent()) {
            return ClaimOutcome.CLAIMED;
        }
        int cutOff = jdbc.sql("""
                        update notifier.notification_deliveries
                           set status = 'unknown', updated_at = now(),
                               last_error = 'redelivered while a send was in progress: the earlier attempt was cut off'
                         where notification_id = :id and channel = :channel and status = 'sending'""")
                .param("id", notificationId)
                .param("channel", channel.wireName())
                .update();
        if (cutOff == 1) {
            return ClaimOutcome.FOUND_IN_DOUBT;
        }
        DeliveryStatus status = status(notificationId, channel).orElseThrow(() -> new IllegalStateException(
                "delivery row of notification " + notificationId + " on " + channel.wireName() + " vanished"));
        return switch (status) {
            case SENT -> ClaimOutcome.ALREADY_SENT;
            case UNKNOWN -> ClaimOutcome.ALREADY_IN_DOUBT;
            // changed under our feet by a concurrent consumer (a rebalance): let the retry look again
            case SENDING, FAILED -> throw new IllegalStateException(
                    "delivery of notification " + notificationId + " on " + channel.wireName() + " is being changed concurrently");
        };
    }

    public void markSent(String notificationId, Channel channel) {
        // unconditional: whatever a concurrent reader concluded, this process knows it was sent
        setStatus(notificationId, channel, DeliveryStatus.SENT, null);
    }

    public void markFailed(String notificationId, Channel channel, String error) {
        setStatus(notificationId, channel, DeliveryStatus.FAILED, error);
    }

    public void markUnknown(String notificationId, Channel channel, String error) {
        setStatus(notificationId, channel, DeliveryStatus.UNKNOWN, error);
    }

    public Optional<DeliveryStatus> status(String notificationId, Channel channel) {
        return jdbc.sql("select status from notifier.notification_deliveries where notification_id = :id and channel = :channel")
                .param("id", notificationId)
                .param("channel", channel.wireName())
                .query(String.class)
                .optional()
                .map(DeliveryStatus::fromWireName);
    }

    private void setStatus(String notificationId, Channel channel, DeliveryStatus status, String error) {
        jdbc.sql("""
                        update notifier.notification_deliveries
                           set status = :status, last_error = :error, updated_at = now()
                         where notification_id = :id and channel = :channel""")
                .param("status", status.wireName())
                .param("error", truncate(error))
                .param("id", notificationId)
                .param("channel", channel.wireName())
                .update();
    }

    private static String truncate(String error) {
        return error == null || error.length() <= MAX_ERROR_LENGTH ? error : error.substring(0, MAX_ERROR_LENGTH);
    }
}
