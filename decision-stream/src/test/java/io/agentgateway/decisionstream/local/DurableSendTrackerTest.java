package io.agentgateway.decisionstream.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The watermark over a producer's sends, with Kafka's own {@link MockProducer} (acknowledgements completed by
 * hand) behind the {@link AckObservingProducer}: an action registered after some sends runs only once every one
 * of them is acknowledged (or, under exactly-once, committed), never when one of them failed.
 */
class DurableSendTrackerTest {
    private final List<String> ran = new ArrayList<>();

    @Test
    void runsOnlyOnceEverySendSoFarIsAcknowledgedInWhateverOrderTheyComplete() {
        MockProducer<byte[], byte[]> kafka = new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        DurableSendTracker tracker = new DurableSendTracker(false);
        AckObservingProducer producer = new AckObservingProducer(kafka, tracker, closed -> {});
        List<String> streamsCallbacks = new ArrayList<>();

        producer.send(record("events"), (metadata, e) -> streamsCallbacks.add("events"));
        producer.send(record("changelog"), (metadata, e) -> streamsCallbacks.add("changelog"));
        tracker.afterSendsSoFar(() -> ran.add("first"));
        producer.send(record("events"), null);
        tracker.afterSendsSoFar(() -> ran.add("second"));

        assertThat(kafka.completeNext()).isTrue();
        assertThat(ran).isEmpty();
        assertThat(kafka.completeNext()).isTrue();
        assertThat(ran).containsExactly("first");
        assertThat(streamsCallbacks).containsExactly("events", "changelog"); // Streams' own callbacks still run
        assertThat(kafka.completeNext()).isTrue();
        assertThat(ran).containsExactly("first", "second");

        // nothing outstanding: runs at once
        tracker.afterSendsSoFar(() -> ran.add("third"));
        assertThat(ran).containsExactly("first", "second", "third");
    }

    @Test
    void acknowledgementsOutOfOrderAdvanceTheWatermarkOnlyOverAnUnbrokenPrefix() {
        DurableSendTracker tracker = new DurableSendTracker(false);
        List<org.apache.kafka.clients.producer.Callback> sends = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sends.add(tracker.onSend(null));
        }
        tracker.afterSendsSoFar(() -> ran.add("after three"));
        sends.get(2).onCompletion(null, null);
        sends.get(1).onCompletion(null, null);
        assertThat(ran).isEmpty();
        sends.get(0).onCompletion(null, null);
        assertThat(ran).containsExactly("after three");
    }

    @Test
    void aFailedSendKeepsEveryLaterWaiterWaiting() {
        MockProducer<byte[], byte[]> kafka = new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        DurableSendTracker tracker = new DurableSendTracker(false);
        AckObservingProducer producer = new AckObservingProducer(kafka, tracker, closed -> {});

        producer.send(record("events"), null);
        tracker.afterSendsSoFar(() -> ran.add("first"));
        producer.send(record("events"), null);
        tracker.afterSendsSoFar(() -> ran.add("second"));

        assertThat(kafka.errorNext(new NotEnoughReplicasException("min.insync.replicas not met"))).isTrue();
        assertThat(kafka.completeNext()).isTrue();
        assertThat(ran).isEmpty();
        assertThat(tracker.waiting()).isEqualTo(2);

        producer.close();
        assertThat(tracker.waiting()).isZero();
        tracker.afterSendsSoFar(() -> ran.add("after close"));
        assertThat(ran).isEmpty();
    }

    @Test
    void underExactlyOnceOnlyTheCommitMakesRecordsDurableAndAnAbortDropsTheirWaiters() {
        MockProducer<byte[], byte[]> kafka = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        DurableSendTracker tracker = new DurableSendTracker(true);
        AckObservingProducer producer = new AckObservingProducer(kafka, tracker, closed -> {});
        producer.initTransactions();

        producer.beginTransaction();
        producer.send(record("events"), null); // acknowledged at once (autoComplete), not yet committed
        tracker.afterSendsSoFar(() -> ran.add("aborted"));
        producer.abortTransaction();

        producer.beginTransaction();
        producer.send(record("events"), null);
        tracker.afterSendsSoFar(() -> ran.add("committed"));
        // even a decision that wrote nothing waits for the commit of its transaction (its offsets are in it)
        tracker.afterSendsSoFar(() -> ran.add("no records"));
        assertThat(ran).isEmpty();
        producer.commitTransaction();
        assertThat(ran).containsExactly("committed", "no records");
    }

    /** What the stream thread's consumer asks before it waits for commands: flush only for a caller that waits. */
    @Test
    void aFlushIsForWaitingCallersOnlyAndNeverUnderExactlyOnce() {
        MockProducer<byte[], byte[]> kafka = new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        DurableSendTracker tracker = new DurableSendTracker(false);
        AckObservingProducer producer = new AckObservingProducer(kafka, tracker, closed -> {});

        producer.send(record("events"), null);
        assertThat(tracker.awaited()).as("records nobody waits for keep their linger").isFalse();
        tracker.afterSendsSoFar(() -> ran.add("caller"));
        assertThat(tracker.awaited()).isTrue();
        producer.flushForWaitingCallers(); // MockProducer's flush acknowledges what it holds, as the broker would
        assertThat(ran).containsExactly("caller");
        assertThat(tracker.awaited()).isFalse();

        DurableSendTracker transactional = new DurableSendTracker(true);
        transactional.onSend(null);
        transactional.afterSendsSoFar(() -> ran.add("after the commit"));
        assertThat(transactional.awaited()).as("a flush makes nothing of a transaction due").isFalse();
    }

    @Test
    void theSupplierFindsTheTrackerOfTheCallingStreamThreadsProducer() throws Exception {
        AckObservingClientSupplier clients = new AckObservingClientSupplier();
        String thread = "app-1234-StreamThread-1";
        var config = new java.util.HashMap<String, Object>();
        config.put("bootstrap.servers", "127.0.0.1:1");
        config.put("client.id", thread + AckObservingClientSupplier.PRODUCER_SUFFIX);
        config.put("key.serializer", ByteArraySerializer.class);
        config.put("value.serializer", ByteArraySerializer.class);
        var producer = clients.getProducer(config);
        DurableSendTracker[] found = new DurableSendTracker[2];
        Thread streamThread = new Thread(() -> found[0] = clients.trackerOfCurrentThread(), thread);
        streamThread.start();
        streamThread.join();
        Thread other = new Thread(() -> found[1] = clients.trackerOfCurrentThread(), "somebody-else");
        other.start();
        other.join();
        assertThat(found[0]).isNotNull();
        assertThat(found[1]).isNull();
        producer.close(java.time.Duration.ZERO);
        assertThat(clients.trackerOf(thread)).isNull();
    }

    private static ProducerRecord<byte[], byte[]> record(String topic) {
        return new ProducerRecord<>(topic, new byte[] {1}, new byte[] {2});
    }
}
