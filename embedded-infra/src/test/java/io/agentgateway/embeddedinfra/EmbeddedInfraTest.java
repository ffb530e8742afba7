package io.agentgateway.embeddedinfra;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.kafka.TopicProvisioner;
import io.agentgateway.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class EmbeddedInfraTest {

    @Test
    void brokerStoresAndServesRecordsOnLoopback() throws Exception {
        EmbeddedKafkaBroker kafka = SharedTestInfra.kafka();
        assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
        TopicProvisioner.ensureTopics(kafka.bootstrapServers(), new TopicProvisioner.Layout(2, 2, (short) 1));
        TopicProvisioner.ensureTopics(kafka.bootstrapServers(), new TopicProvisioner.Layout(2, 2, (short) 1));

        try (var producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(Topics.REPLIES.name(), 1, "k", "hello")).get();
        }
        Properties props = new Properties();
        props.put("bootstrap.servers", kafka.bootstrapServers());
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(Topics.REPLIES.name(), 1);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofSeconds(10));
            assertThat(records.records(tp)).extracting(r -> r.value()).contains("hello");
        }
    }

    @Test
    void existingTopicsWithFewerReplicasThanTheLayoutAsksForAreLeftAloneAndSaidAtStart() throws Exception {
        EmbeddedKafkaBroker kafka = SharedTestInfra.kafka();
        TopicProvisioner.ensureTopics(kafka.bootstrapServers(), new TopicProvisioner.Layout(2, 2, (short) 1));
        List<LogRecord> said = new CopyOnWriteArrayList<>();
        Logger logger = Logger.getLogger(TopicProvisioner.class.getName());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                said.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        logger.addHandler(capture);
        try {
            // a deployment that asks for 3 replicas finds the topics an earlier start created with one
            TopicProvisioner.ensureTopics(kafka.bootstrapServers(), new TopicProvisioner.Layout(2, 2, (short) 3));
        } finally {
            logger.removeHandler(capture);
        }
        assertThat(said).extracting(r -> new java.text.MessageFormat(r.getMessage()).format(r.getParameters()))
                .contains("Topic gateway.commands.v1 has 1 replica(s) per partition, but this cluster's layout asks"
                        + " for 3: it stops while one of its brokers is down. Add replicas with"
                        + " kafka-reassign-partitions.sh (docs/operating-a-cluster.md).");
        assertThat(said).allMatch(r -> r.getLevel() == Level.WARNING).hasSize(Topics.ALL.size());
    }

    @Test
    void postgresCreatesIsolatedDatabases() throws Exception {
        EmbeddedPostgresServer postgres = SharedTestInfra.postgres();
        String url = postgres.createDatabase("infra_test");
        try (var c = DriverManager.getConnection(url, postgres.username(), postgres.password())) {
            c.createStatement().execute("create table t (x int)");
            var rs = c.createStatement().executeQuery("select version()");
            rs.next();
            assertThat(rs.getString(1)).startsWith("PostgreSQL 16");
        }
    }

    @Test
    void brokerWithDataDirectoryKeepsItsLogAcrossRestarts() throws Exception {
        Path dir = Files.createTempDirectory("kafka-restart-");
        try {
            try (var kafka = EmbeddedKafkaBroker.start(dir, 0)) {
                TopicProvisioner.ensureTopics(kafka.bootstrapServers(), new TopicProvisioner.Layout(1, 1, (short) 1));
                try (var producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()),
                        new StringSerializer(), new StringSerializer())) {
                    producer.send(new ProducerRecord<>(Topics.COMMANDS.name(), "w", "kept")).get();
                }
            }
            try (var kafka = EmbeddedKafkaBroker.start(dir, 0)) {
                Properties props = new Properties();
                props.put("bootstrap.servers", kafka.bootstrapServers());
                try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
                    TopicPartition tp = new TopicPartition(Topics.COMMANDS.name(), 0);
                    consumer.assign(List.of(tp));
                    consumer.seekToBeginning(List.of(tp));
                    assertThat(consumer.poll(Duration.ofSeconds(10)).records(tp)).extracting(r -> r.value()).containsExactly("kept");
                }
            }
        } finally {
            Directories.deleteRecursively(dir);
        }
    }
}
