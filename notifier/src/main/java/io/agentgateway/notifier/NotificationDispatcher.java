package io.agentgateway.notifier;

import io.agentgateway.notifier.channel.Channel;
import io.agentgateway.notifier.channel.ChannelSender;
import io.agentgateway.notifier.channel.DeliveryFailedException;
import io.agentgateway.notifier.ledger.DeliveryLedger;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.ReactorTracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one notification on each of its channels, at most once per channel, through the
 * {@link DeliveryLedger}. Channels are independent: each has its own ledger row, so a retry caused
 * by a failed chat post skips the email that already went out.
 */
public class NotificationDispatcher {
    private static final Logger log = LoggerFactory.getLogger(NotificationDispatcher.class);

    private final List<ChannelSender> senders;
    private final DeliveryLedger ledger;
    private final DeliveryMetrics metrics;
    private final GatewayTracing tracing;

    public NotificationDispatcher(List<ChannelSender> senders, DeliveryLedger ledger, DeliveryMetrics metrics) {
        this(senders, ledger, metrics, GatewayTracing.disabled());
    }

    /** @param tracing while on, each send on a channel is a client span of the notification's span */
    public NotificationDispatcher(List<ChannelSender> senders, DeliveryLedger ledger, DeliveryMetrics metrics,
                                  GatewayTracing tracing) {
        this.senders = senders.stream().sorted(Comparator.comparing(ChannelSender::channel)).toList();
        this.ledger = ledger;
        this.metrics = metrics;
        this.tracing = tracing;
    }

    /** @throws NotificationDeliveryException when a channel certainly failed and a retry may still succeed */
    public void deliver(NotificationRequested notification) {
        String id = notification.notificationId();
        List<ChannelSender> applicable = senders.stream().filter(sender -> sender.appliesTo(notification)).toList();
        if (applicable.isEmpty()) {
            // nobody can be told: worth a line in the log, not a retry
            log.warn("notification {} ({}) of workspace {} names no valid email recipient and no chat webhook",
                    id, notification.kind(), notification.workspaceId());
            return;
        }
        Map<Channel, String> failures = new EnumMap<>(Channel.class);
        for (ChannelSender sender : applicable) {
            deliverOn(sender, notification).ifPresent(error -> failures.put(sender.channel(), error));
        }
        if (!failures.isEmpty()) {
            throw new NotificationDeliveryException(id, failures);
        }
    }

    private void send(ChannelSender sender, NotificationRequested notification) throws DeliveryFailedException {
        if (!tracing.enabled() || !GatewayTracing.inTrace(Context.current())) {
            sender.send(notification);
            return;
        }
        Span span = tracing.tracer().spanBuilder("deliver " + sender.channel().wireName()).setSpanKind(SpanKind.CLIENT)
                .setAttribute(GatewayAttributes.CHANNEL, sender.channel().wireName()).startSpan();
        GatewayAttributes.notification(span, notification);
        try (Scope current = span.makeCurrent()) {
            sender.send(notification);
        } catch (DeliveryFailedException | RuntimeException e) {
            ReactorTracing.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    /** @return the error when this attempt certainly failed */
    private Optional<String> deliverOn(ChannelSender sender, NotificationRequested notification) {
        String id = notification.notificationId();
        Channel channel = sender.channel();
        switch (ledger.claim(id, channel)) {
            case CLAIMED -> { }
            case ALREADY_SENT, ALREADY_IN_DOUBT -> {
                log.debug("notification {} on {}: handled before, not sending again", id, channel.wireName());
                return Optional.empty();
            }
            case FOUND_IN_DOUBT -> {
                // at-most-once: an earlier attempt was cut off mid-send and may have delivered
                log.warn("notification {} on {}: an earlier attempt was cut off while sending; it may or may not have"
                        + " arrived and is not sent again (marked unknown)", id, channel.wireName());
                metrics.unknown(channel);
                return Optional.empty();
            }
        }
        try {
            send(sender, notification);
        } catch (DeliveryFailedException e) {
            if (e.mayHaveBeenDelivered()) {
                ledger.markUnknown(id, channel, e.getMessage());
                metrics.unknown(channel);
                log.warn("notification {} on {}: {}; it may have arrived and is not sent again (marked unknown)",
                        id, channel.wireName(), e.getMessage());
                return Optional.empty();
            }
            ledger.markFailed(id, channel, e.getMessage());
            metrics.failed(channel);
            log.info("notification {} on {}: attempt failed: {}", id, channel.wireName(), e.getMessage());
            return Optional.of(e.getMessage());
        } catch (RuntimeException e) {
            // a defect, not a delivery error: nobody can tell whether the message left, so treat it as
            // in doubt rather than risk a duplicate, and keep the other channels going
            ledger.markUnknown(id, channel, "unexpected " + e.getClass().getSimpleName());
            metrics.unknown(channel);
            log.error("notification {} on {}: unexpected error while sending; marked unknown", id, channel.wireName(), e);
            return Optional.empty();
        }
        ledger.markSent(id, channel);
        metrics.sent(channel);
        log.info("notification {} delivered on {}", id, channel.wireName());
        return Optional.empty();
    }
}
