package io.agentgateway.launcher.faults;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * A Kafka {@link ConsumerInterceptor} for an ingress replica's reply consumer
 * ({@code spring.kafka.consumer.properties.interceptor.classes}): while a test holds it ({@link #hold}), a batch of
 * replies that reached the consumer is kept from the ingress until the test lets it go ({@link #release}), as a
 * replies partition failing over would keep it. Everything real: the decision stream decided and wrote the reply in
 * time, the broker delivered it; it arrives late. Other records, and replies while nobody holds, pass at once.
 */
public final class HeldReplies extends ReplyConsumerInterceptor {
    /** Null: nothing held. Bounded wait, so a failing test cannot keep the consumer forever. */
    private static volatile CountDownLatch gate;
    private static final AtomicInteger held = new AtomicInteger();

    /** From now on, batches of replies wait until {@link #release}. */
    static void hold() {
        held.set(0);
        gate = new CountDownLatch(1);
    }

    static void release() {
        CountDownLatch current = gate;
        gate = null;
        if (current != null) {
            current.countDown();
        }
    }

    /** How many batches of replies reached the consumer since {@link #hold} and were held. */
    static int heldBatches() {
        return held.get();
    }

    @Override
    public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
        CountDownLatch current = gate;
        if (current != null && !records.isEmpty() && carriesReplies(records)) {
            held.incrementAndGet();
            try {
                current.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return records;
    }
}
