package io.agentgateway.notifier;

import io.agentgateway.schemas.event.NotificationRequested;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.MessageListener;

/**
 * Hands the records of its {@link NotificationLane} to the {@link NotificationDispatcher} (approval requests
 * through the {@link ApprovalNotificationThrottle}); records of the other lane are passed over. The routine
 * lane reports unreadable records; the urgent lane passes over them silently, so each is reported once.
 */
public class NotificationListener implements MessageListener<String, NotificationRequested> {
    private final NotificationDispatcher dispatcher;
    private final NotificationLane lane;
    private final ApprovalNotificationThrottle throttle;

    public NotificationListener(NotificationDispatcher dispatcher) {
        this(dispatcher, NotificationLane.ALL, ApprovalNotificationThrottle.unlimited());
    }

    public NotificationListener(NotificationDispatcher dispatcher, NotificationLane lane, ApprovalNotificationThrottle throttle) {
        this.dispatcher = dispatcher;
        this.lane = lane;
        this.throttle = throttle;
    }

    @Override
    public void onMessage(ConsumerRecord<String, NotificationRequested> record) {
        NotificationRequested notification = record.value();
        if (notification == null) {
            if (lane.reportsUnreadable()) {
                throw new InvalidNotificationException("record without a value at " + position(record));
            }
            return;
        }
        if (!lane.handles(notification.kind())) {
            return;
        }
        if (notification.notificationId() == null || notification.notificationId().isBlank()) {
            // without an id there is no way to deliver at most once
            throw new InvalidNotificationException("notification without a notificationId at " + position(record));
        }
        throttle.admit(notification).ifPresent(dispatcher::deliver);
    }

    static String position(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }
}
