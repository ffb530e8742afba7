package io.agentgateway.notifier.channel;

import java.util.Locale;

/** A way a notification reaches people; the wire name is the one stored in the delivery ledger. */
public enum Channel {
    EMAIL,
    CHAT;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
