package io.agentgateway.notifier.channel;

import io.agentgateway.schemas.notification.NotificationRequested;

/** Delivers a notification on one channel. Implementations make exactly one delivery attempt per call. */
public interface ChannelSender {

    Channel channel();

    /** Whether the notification asks for this channel at all (recipients given, webhook configured). */
    boolean appliesTo(NotificationRequested notification);

    /**
     * @throws DeliveryFailedException with a message that is safe to log and to store: it never
     *                                 contains a secret such as the chat webhook URL
     */
    void send(NotificationRequested notification) throws DeliveryFailedException;
}
