package io.agentgateway.notifier.ledger;

/** What {@link DeliveryLedger#claim} found for one notification on one channel. */
public enum ClaimOutcome {
    /** Never tried, or the last try certainly failed: the caller owns the delivery now and must send. */
    CLAIMED,
    /** Delivered before: do nothing. */
    ALREADY_SENT,
    /** A previous try was cut off mid-send (status was {@code sending}); now marked {@code unknown}: do not send. */
    FOUND_IN_DOUBT,
    /** Marked {@code unknown} earlier: do not send. */
    ALREADY_IN_DOUBT
}
