package io.agentgateway.benchmark;

import io.agentgateway.decision.runtime.DecisionStreamsConfig;
import io.agentgateway.decision.runtime.ProcessingGuarantee;
import io.agentgateway.decision.runtime.StreamsOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The floor our request-reply can approach: a producer, a Kafka Streams step that does nothing but
 * forward, and a reply consumer, on the same broker and with the same client settings as the
 * gateway's decision path. Whatever the gateway adds on top of this is our own cost.
 */
final class RequestReplyFloor implements AutoCloseable {
    private static final String REQUESTS = "bench.floor.requests";
    private static final String REPLIES = "bench.floor.replies";

    private final KafkaStreams streams;
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> consumer;
    private final Map<String, CompletableFuture<Boolean>> waiting = new ConcurrentHashMap<>();
    private final Thread replyReader;
    private volatile boolean running = true;

    RequestReplyFloor(String bootstrapServers, String processingGuarantee) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
            var existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = List.of(new NewTopic(REQUESTS, 1, (short) 1), new NewTopic(REPLIES, 1, (short) 1))
                    .stream().filter(t -> !existing.contains(t.name())).toList();
            admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
        }
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(REQUESTS, Consumed.with(Serdes.String(), Serdes.String()))
                .to(REPLIES, Produced.with(Serdes.String(), Serdes.String()));
        // exactly the decision stream's Streams settings (commit interval, poll, linger and requests in flight as
        // the gateway's system properties set them, fetch wait, no caches)
        StreamsOptions options = new StreamsOptions("bench-floor-" + processingGuarantee + "-" + UUID.randomUUID(),
                ProcessingGuarantee.valueOf(processingGuarantee.toUpperCase(java.util.Locale.ROOT)), null, null,
                System.getProperty("java.io.tmpdir") + "/bench-floor-" + UUID.randomUUID(), 1, (short) 1,
                Integer.getInteger("gateway.decision.linger-ms", StreamsOptions.defaults().lingerMs()),
                Integer.getInteger("gateway.decision.max-in-flight", StreamsOptions.defaults().maxInFlight()),
                StreamsOptions.defaults().fetchMaxWaitMs());
        Properties props = DecisionStreamsConfig.build(Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), options);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "latest");
        streams = new KafkaStreams(builder.build(), props);
        streams.start();

        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.LINGER_MS_CONFIG, 0,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 500, // as the ingress's reply listener (Kafka's default)
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new StringDeserializer());
        TopicPartition replies = new TopicPartition(REPLIES, 0);
        consumer.assign(List.of(replies));
        consumer.seekToEnd(List.of(replies));
        consumer.position(replies);
        replyReader = new Thread(this::readReplies, "bench-floor-replies");
        replyReader.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (streams.state() != KafkaStreams.State.RUNNING && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    private void readReplies() {
        while (running) {
            for (var record : consumer.poll(Duration.ofMillis(100))) {
                CompletableFuture<Boolean> f = waiting.remove(record.key());
                if (f != null) {
                    f.complete(true);
                }
            }
        }
    }

    LoadRunner.Call call() {
        return () -> {
            String id = UUID.randomUUID().toString();
            CompletableFuture<Boolean> reply = new CompletableFuture<>();
            waiting.put(id, reply);
            producer.send(new ProducerRecord<>(REQUESTS, id, "{\"ping\":true}"), (md, e) -> {
                if (e != null) {
                    waiting.remove(id);
                    reply.complete(false);
                }
            });
            return reply.orTimeout(10, TimeUnit.SECONDS);
        };
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        replyReader.join(5000);
        consumer.close();
        producer.close();
        streams.close(Duration.ofSeconds(10));
    }
}
