package io.agentgateway.notifier;

import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.ReactorTracing;
import io.agentgateway.gatewaytracing.TraceHeaders;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
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
    private final GatewayTracing tracing;

    public NotificationListener(NotificationDispatcher dispatcher) {
        this(dispatcher, NotificationLane.ALL, ApprovalNotificationThrottle.unlimited());
    }

    public NotificationListener(NotificationDispatcher dispatcher, NotificationLane lane, ApprovalNotificationThrottle throttle) {
        this(dispatcher, lane, throttle, GatewayTracing.disabled());
    }

    /**
     * @param tracing while on, a notification of this lane is handled in a span that continues its record's trace
     *                (the decision that asked for it); the deliveries on each channel are its children
     */
    public NotificationListener(NotificationDispatcher dispatcher, NotificationLane lane, ApprovalNotificationThrottle throttle,
                                GatewayTracing tracing) {
        this.dispatcher = dispatcher;
        this.lane = lane;
        this.throttle = throttle;
        this.tracing = tracing;
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
        if (!tracing.enabled()) {
            throttle.admit(notification).ifPresent(dispatcher::deliver);
            return;
        }
        Span span = tracing.tracer().spanBuilder("notify " + notification.kind()).setSpanKind(SpanKind.CONSUMER)
                .setParent(TraceHeaders.extract(record.headers())).startSpan();
        GatewayAttributes.notification(span, notification);
        try (Scope current = span.makeCurrent()) {
            throttle.admit(notification).ifPresent(dispatcher::deliver);
        } catch (RuntimeException e) {
            ReactorTracing.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    static String position(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }
}
