package io.agentgateway.notifier;

import io.agentgateway.notifier.channel.Channel;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.ConsumerAwareRecordRecoverer;
import org.springframework.kafka.support.serializer.DeserializationException;

/**
 * What happens to a record once retrying is over. A record that is not a readable notification is
 * skipped (logged and counted): the dead-letter topic holds notifications, and a replay of garbage
 * could never succeed. Every other record is handed to the dead-letter publisher.
 */
public class NotificationRecoverer implements ConsumerAwareRecordRecoverer {
    private static final Logger log = LoggerFactory.getLogger(NotificationRecoverer.class);

    private final ConsumerAwareRecordRecoverer deadLetterPublisher;
    private final DeliveryMetrics metrics;
    private final boolean reportsUndecodable;

    public NotificationRecoverer(ConsumerAwareRecordRecoverer deadLetterPublisher, DeliveryMetrics metrics) {
        this(deadLetterPublisher, metrics, true);
    }

    /** @param reportsUndecodable false for the urgent lane: the routine lane reads the same record and reports it */
    public NotificationRecoverer(ConsumerAwareRecordRecoverer deadLetterPublisher, DeliveryMetrics metrics,
                                 boolean reportsUndecodable) {
        this.deadLetterPublisher = deadLetterPublisher;
        this.metrics = metrics;
        this.reportsUndecodable = reportsUndecodable;
    }

    @Override
    public void accept(ConsumerRecord<?, ?> record, Consumer<?, ?> consumer, Exception exception) {
        String position = NotificationListener.position(record);
        if (!reportsUndecodable && isUndecodable(exception)) {
            return;
        }
        if (isUnreadable(exception)) {
            log.warn("skipping record {}: not a readable notification ({})", position, rootMessage(exception));
            metrics.skippedUnreadable();
            return;
        }
        deadLetterPublisher.accept(record, consumer, exception);
        Set<Channel> failed = deliveryFailure(exception).map(NotificationDeliveryException::failedChannels).orElse(Set.of());
        failed.forEach(metrics::deadLettered);
        // what to do about it, for whoever reads this line: the channel's failure is on the dead letter too
        log.error("record {} dead-lettered after its last attempt: {}; once the channel works again, send it again with"
                        + " the launcher's redrive-notifications --workspace {}", position,
                deliveryFailure(exception).map(NotificationDeliveryException::failureSummary).orElse(rootMessage(exception)),
                record.key());
    }

    static Optional<NotificationDeliveryException> deliveryFailure(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof NotificationDeliveryException failure) {
                return Optional.of(failure);
            }
        }
        return Optional.empty();
    }

    private static boolean isUndecodable(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof DeserializationException) {
                return true;
            }
        }
        return false;
    }

    private static boolean isUnreadable(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof DeserializationException || t instanceof InvalidNotificationException) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable exception) {
        Throwable root = exception;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
