package io.agentgateway.notifier.ledger;

import java.util.Locale;

/** The status column of {@code notifier.notification_deliveries}. */
public enum DeliveryStatus {
    /** Claimed; the message may be on its way. */
    SENDING,
    SENT,
    /** The last attempt certainly did not deliver; a retry may claim the row again. */
    FAILED,
    /** An attempt may or may not have delivered; never sent again. */
    UNKNOWN;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DeliveryStatus fromWireName(String wireName) {
        return valueOf(wireName.toUpperCase(Locale.ROOT));
    }
}
