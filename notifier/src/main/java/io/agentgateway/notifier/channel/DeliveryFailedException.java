package io.agentgateway.notifier.channel;

/**
 * One delivery attempt did not succeed. The message is safe to log, store and put into the
 * dead-letter headers (no webhook URL, no key); for that reason no library exception is attached
 * as the cause, since their messages can quote the URL.
 */
public class DeliveryFailedException extends Exception {
    private final boolean mayHaveBeenDelivered;

    private DeliveryFailedException(String message, boolean mayHaveBeenDelivered) {
        super(message, null, false, false);
        this.mayHaveBeenDelivered = mayHaveBeenDelivered;
    }

    /** The receiver certainly did not get the message (refused connection, error answer): a retry is safe. */
    public static DeliveryFailedException notDelivered(String message) {
        return new DeliveryFailedException(message, false);
    }

    /**
     * The request left but no answer came back (a read timeout): the receiver may have the message.
     * Retrying could deliver it twice.
     */
    public static DeliveryFailedException inDoubt(String message) {
        return new DeliveryFailedException(message, true);
    }

    public boolean mayHaveBeenDelivered() {
        return mayHaveBeenDelivered;
    }
}
