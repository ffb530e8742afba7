package io.agentgateway.notifier;

import io.agentgateway.schemas.event.NotificationRequested;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.MessageListener;

/** Hands each record of the notifications topic to the {@link NotificationDispatcher}. */
public class NotificationListener implements MessageListener<String, NotificationRequested> {
    private final NotificationDispatcher dispatcher;

    public NotificationListener(NotificationDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    @Override
    public void onMessage(ConsumerRecord<String, NotificationRequested> record) {
        NotificationRequested notification = record.value();
        if (notification == null) {
            throw new InvalidNotificationException("record without a value at " + position(record));
        }
        if (notification.notificationId() == null || notification.notificationId().isBlank()) {
            // without an id there is no way to deliver at most once
            throw new InvalidNotificationException("notification without a notificationId at " + position(record));
        }
        dispatcher.deliver(notification);
    }

    static String position(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }
}
