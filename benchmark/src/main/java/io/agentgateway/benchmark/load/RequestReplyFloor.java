package io.agentgateway.benchmark.load;

import io.agentgateway.benchmark.gateway.GatewayJarProcess;
import io.agentgateway.decisionstream.runtime.DecisionStreamsConfig;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.decisionstream.runtime.StreamsOptions;
import io.agentgateway.embeddedinfra.Directories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
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
 * forward, and a reply consumer, on the same broker as the gateway's decision path. Whatever the gateway
 * adds on top of this is our own cost. It runs in the benchmark's process against the broker of the gateway
 * under test: the decision stream's Streams settings except the linger (none: {@code bench.floorLingerMs},
 * 0), with the requests in flight and fetch wait the gateway is given ({@code GATEWAY_DECISION_MAXINFLIGHT}
 * and {@code _FETCHMAXWAITMS}, or the same {@code gateway.decision.*} system properties).
 */
public final class RequestReplyFloor implements AutoCloseable {
    private static final String REQUESTS = "bench.floor.requests";
    private static final String REPLIES = "bench.floor.replies";

    private final KafkaStreams streams;
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> consumer;
    private final Map<String, CompletableFuture<Boolean>> waiting = new ConcurrentHashMap<>();
    private final Thread replyReader;
    private final Path stateDir;
    private volatile boolean running = true;

    public RequestReplyFloor(String bootstrapServers, String processingGuarantee) throws Exception {
        stateDir = Files.createTempDirectory("bench-floor-");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
            var existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = List.of(new NewTopic(REQUESTS, 1, (short) 1), new NewTopic(REPLIES, 1, (short) 1))
                    .stream().filter(t -> !existing.contains(t.name())).toList();
            admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
        }
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(REQUESTS, Consumed.with(Serdes.String(), Serdes.String()))
                .to(REPLIES, Produced.with(Serdes.String(), Serdes.String()));
        // the decision stream's Streams settings (DecisionStreamsConfig: no caches, no task idling, the fetch
        // wait and requests in flight), with the requests in flight and fetch wait the gateway is given through
        // its own variables (GATEWAY_DECISION_MAXINFLIGHT, ...) or system properties
        ProcessingGuarantee guarantee = ProcessingGuarantee.valueOf(processingGuarantee.toUpperCase(java.util.Locale.ROOT));
        Properties props = DecisionStreamsConfig.build(Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
                StreamsOptions.defaults());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench-floor-" + processingGuarantee + "-" + UUID.randomUUID());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee.streamsValue());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, guarantee.defaultCommitIntervalMs((short) 1));
        if (guarantee.defaultPollMs() != null) {
            props.put(StreamsConfig.POLL_MS_CONFIG, guarantee.defaultPollMs());
        }
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // the raw floor does not linger: the decision stream's producer lingers 1 ms and is flushed when a caller in
        // its process waits, so a floor with the stream's linger paid a millisecond the gateway does not, and every
        // ratio at low rates looked a millisecond better than it was (3.5 ms instead of 2.4 at 1/s)
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG),
                Integer.getInteger("bench.floorLingerMs", 0));
        decisionSetting("max-in-flight", "MAXINFLIGHT").ifPresent(v ->
                props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), v));
        decisionSetting("fetch-max-wait-ms", "FETCHMAXWAITMS").ifPresent(v ->
                props.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), v));
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

    public LoadRunner.Call call() {
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
        Directories.deleteRecursively(stateDir);
    }

    /**
     * A {@code gateway.decision.*} setting as the gateway under test reads it: the system property, else the
     * environment variable (the benchmark's environment is the gateway's, see {@link GatewayJarProcess}).
     */
    private static Optional<Integer> decisionSetting(String property, String variable) {
        String value = System.getProperty("gateway.decision." + property, System.getenv("GATEWAY_DECISION_" + variable));
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(Integer.parseInt(value.trim()));
    }
}
