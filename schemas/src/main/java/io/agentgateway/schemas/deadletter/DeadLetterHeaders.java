package io.agentgateway.schemas.deadletter;

/**
 * The headers the notifier writes on a record of {@code gateway.notifications.dlt.v1}, beside spring-kafka's
 * {@code kafka_dlt-exception-*}: what a reader of the dead letters (the redrive, an operator) learns of why one failed.
 */
public final class DeadLetterHeaders {
    /** Which channels were still failing when the record was dead-lettered, e.g. {@code chat}. */
    public static final String FAILED_CHANNELS = "gateway-failed-channels";
    /** Why, per channel, e.g. {@code chat: chat webhook answered HTTP 500}. */
    public static final String DELIVERY_ERROR = "gateway-delivery-error";

    private DeadLetterHeaders() {}
}
