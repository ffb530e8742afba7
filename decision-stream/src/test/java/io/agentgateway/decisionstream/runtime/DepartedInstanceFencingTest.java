package io.agentgateway.decisionstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * The transaction an instance left open when it died is aborted once the group has dropped the instance: on a real
 * broker, a group of two members named as Kafka Streams names its consumers, one of which leaves with its producer's
 * transaction open, as a killed process leaves it.
 */
class DepartedInstanceFencingTest {

    @Test
    void instancesAreReadFromStreamsClientIds() {
        var pattern = DepartedInstanceFencing.memberClientIdPattern("gateway-decision-stream-v2");
        String a = "79ad4ff3-20a5-4e5d-86c8-2cfc3cc97a0e";
        String b = "61ae399e-5d69-466a-8b3a-6815051e8947";
        var instances = DepartedInstanceFencing.instancesOf(List.of(
                "gateway-decision-stream-v2-" + a + "-StreamThread-1-consumer",
                "gateway-decision-stream-v2-" + a + "-StreamThread-2-consumer",
                "gateway-decision-stream-v2-" + b + "-StreamThread-1-consumer",
                "someone-else-" + a + "-StreamThread-1-consumer",
                "gateway-decision-stream-v2-" + b + "-StreamThread-1-restore-consumer",
                "an operator's own client id"), pattern);
        assertThat(instances).containsOnlyKeys(a, b);
        assertThat(instances.get(a)).containsExactly(1, 2);

        assertThat(DepartedInstanceFencing.departedTransactionalIds("gateway-decision-stream-v2", instances,
                Map.of(b, Set.of(1)))).containsExactly("gateway-decision-stream-v2-" + a + "-1",
                "gateway-decision-stream-v2-" + a + "-2");
        assertThat(DepartedInstanceFencing.departedTransactionalIds("gateway-decision-stream-v2", Map.of(), instances))
                .as("nobody was seen before: nothing to fence").isEmpty();
    }

    @Test
    void aTransactionLeftOpenByAnInstanceTheGroupDroppedIsAborted() throws Exception {
        String bootstrap = SharedTestInfra.kafka().bootstrapServers();
        String applicationId = "fencing-it-" + UUID.randomUUID();
        String topic = applicationId + "-out";
        String dead = UUID.randomUUID().toString();
        String survivor = UUID.randomUUID().toString();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            TopicPartition out = new TopicPartition(topic, 0);

            AtomicBoolean polling = new AtomicBoolean(true);
            Thread survivorThread = member(bootstrap, applicationId, survivor, topic, polling);
            KafkaConsumer<byte[], byte[]> deadMember = consumer(bootstrap, applicationId, dead);
            deadMember.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                deadMember.poll(Duration.ofMillis(100));
                return stableWith(admin, applicationId, 2);
            });

            // the dead instance's producer: a transaction with a write, never ended
            KafkaProducer<byte[], byte[]> abandoned = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, applicationId + "-" + dead + "-1",
                    ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 600_000), new ByteArraySerializer(), new ByteArraySerializer());
            abandoned.initTransactions();
            abandoned.beginTransaction();
            abandoned.send(new ProducerRecord<>(topic, new byte[] {1})).get();
            assertThat(lastStableOffset(admin, out)).as("the open transaction holds read_committed readers").isZero();

            Properties streams = new Properties();
            streams.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
            streams.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            try (DepartedInstanceFencing fencing = new DepartedInstanceFencing(streams)) {
                fencing.look();
                assertThat(lastStableOffset(admin, out)).as("both instances live: nothing fenced").isZero();

                deadMember.close(); // the group drops it (a killed instance: at its session timeout)
                await().atMost(Duration.ofSeconds(30)).until(() -> stableWith(admin, applicationId, 1));
                fencing.look();
                assertThat(lastStableOffset(admin, out)).as("aborted: its marker is past the write").isEqualTo(2);
            } finally {
                polling.set(false);
                survivorThread.join(10_000);
                abandoned.close(Duration.ZERO);
            }
        }
    }

    private static Thread member(String bootstrap, String group, String processId, String topic, AtomicBoolean polling) {
        Thread thread = new Thread(() -> {
            try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap, group, processId)) {
                consumer.subscribe(List.of(topic));
                while (polling.get()) {
                    consumer.poll(Duration.ofMillis(100));
                }
            }
        }, "survivor");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, String group, String processId) {
        return new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.CLIENT_ID_CONFIG, group + "-" + processId + "-StreamThread-1-consumer",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static boolean stableWith(Admin admin, String group, int members) throws Exception {
        var description = admin.describeConsumerGroups(Set.of(group)).all().get().get(group);
        return description.groupState() == GroupState.STABLE && description.members().size() == members;
    }

    private static long lastStableOffset(Admin admin, TopicPartition partition) throws Exception {
        return admin.listOffsets(Map.of(partition, OffsetSpec.latest()),
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get().get(partition).offset();
    }
}
