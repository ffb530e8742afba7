package io.agentgateway.decisionstream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.internals.AdminApiDriver;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.junit.jupiter.api.Test;

class DecisionStreamsConfigTest {
    /**
     * Kafka clients without KAFKA-20673 (before 4.2.2, and 4.3.0) route an admin listOffsets to the partition leader
     * they cached, and wait for that broker while it is dead. Streams asks for changelog end offsets that way before
     * it restores a task, so an exactly-once instance fenced while a broker was down stalled until the broker
     * returned (docs/operating-a-cluster.md, the controller kill). Boot's own Kafka version (4.2.1) lacks it: dropping
     * the pin in the root pom must fail here, not in the next fault run. The fix is checked by what it added (the
     * lookup a fulfilment request falls back to), not by a version number.
     */
    @Test
    void kafka_clients_re_resolve_a_partition_leader_that_left_the_cluster() {
        assertThat(Arrays.stream(AdminApiDriver.class.getDeclaredMethods()).map(Method::getName))
                .as("kafka-clients %s has KAFKA-20673 (AdminApiDriver.maybeRetryLookup)", AppInfoParser.getVersion())
                .contains("maybeRetryLookup");
    }

    private static final Map<String, Object> CONNECTION = Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092",
            StreamsConfig.APPLICATION_ID_CONFIG, "overridden");

    @Test
    void at_least_once_defaults_are_tuned_for_reply_latency() {
        Properties props = DecisionStreamsConfig.build(CONNECTION, StreamsOptions.defaults());
        assertThat(props)
                .containsEntry("bootstrap.servers", "127.0.0.1:9092")
                .containsEntry("application.id", "gateway-decision-stream-v2")
                .containsEntry("processing.guarantee", "at_least_once")
                // rare commits: each one parks the stream thread in producer.flush
                .containsEntry("commit.interval.ms", 5_000L)
                .containsEntry("producer.linger.ms", 1)
                .containsEntry("producer.max.in.flight.requests.per.connection", 5)
                .containsEntry("consumer.fetch.max.wait.ms", 500)
                .containsEntry("num.stream.threads", 1)
                .containsEntry("replication.factor", 1)
                .containsEntry("statestore.cache.max.bytes", DecisionStreamsConfig.EVIDENCE_LOG_CACHE_BYTES)
                // one source topic: nothing to line up, no idling
                .containsEntry("max.task.idle.ms", -1L)
                .containsEntry("deserialization.exception.handler", LogAndContinueExceptionHandler.class)
                .doesNotContainKeys("poll.ms", "state.dir");
        // Streams accepts the whole set
        new StreamsConfig(props);
    }

    @Test
    void exactly_once_commits_and_polls_often() {
        StreamsOptions options = new StreamsOptions("app", ProcessingGuarantee.EXACTLY_ONCE_V2, null, null, "/tmp/x", 2,
                (short) 3, 0, 1, 10);
        Properties props = DecisionStreamsConfig.build(CONNECTION, options);
        assertThat(props)
                .containsEntry("processing.guarantee", "exactly_once_v2")
                // replicated: each commit's markers must replicate before the next transaction writes there
                .containsEntry("commit.interval.ms", 100L)
                .containsEntry("poll.ms", 10L)
                .containsEntry("state.dir", "/tmp/x")
                .containsEntry("num.stream.threads", 2)
                .containsEntry("replication.factor", 3)
                .containsEntry("producer.linger.ms", 0)
                .containsEntry("producer.max.in.flight.requests.per.connection", 1)
                .containsEntry("consumer.fetch.max.wait.ms", 10);
        new StreamsConfig(props);
    }

    @Test
    void explicit_intervals_win_over_the_guarantee_defaults() {
        StreamsOptions options = new StreamsOptions("app", ProcessingGuarantee.EXACTLY_ONCE_V2, 50L, 20L, null, 1,
                (short) 1, 1, 5, 5);
        assertThat(DecisionStreamsConfig.build(CONNECTION, options))
                .containsEntry("commit.interval.ms", 50L)
                .containsEntry("poll.ms", 20L);
    }

    @Test
    void failover_takes_seconds_not_a_minute() {
        Properties props = DecisionStreamsConfig.build(CONNECTION, StreamsOptions.defaults(),
                FailoverOptions.defaults().withInstanceId("ds-1"));
        assertThat(props)
                // static membership: a restart with the same id gets its tasks back without a rebalance
                .containsEntry("main.consumer.group.instance.id", "ds-1")
                // Kafka's default of 45 s held every workspace of a dead instance's partitions
                .containsEntry("consumer.session.timeout.ms", 6_000)
                // a rebalance (a member left or came back) is learnt within half a second: every handover waits for it
                .containsEntry("consumer.heartbeat.interval.ms", 500)
                // a thread told to stop or to give a task up decides what it polled first: a poll takes little
                .containsEntry("main.consumer.max.poll.records", 100)
                .containsEntry("num.standby.replicas", 1)
                // a restarted instance takes tasks back when its copy is close, not by Kafka's 10,000 records
                .containsEntry("acceptable.recovery.lag", 200L)
                .containsEntry("probing.rebalance.interval.ms", 60_000L)
                // only under exactly-once
                .doesNotContainKey("producer.transaction.timeout.ms");
        new StreamsConfig(props);
        StreamsOptions eos = new StreamsOptions("app", ProcessingGuarantee.EXACTLY_ONCE_V2, null, null, null, 1,
                (short) 3, 1, 5, 500);
        assertThat(DecisionStreamsConfig.build(CONNECTION, eos, FailoverOptions.defaults()))
                // outlasts a broker's failover, so a transaction it coordinated survives the move
                .containsEntry("producer.transaction.timeout.ms", 15_000)
                .doesNotContainKey("main.consumer.group.instance.id");
    }

    @Test
    void replication_resolved_from_the_cluster_reaches_the_changelogs() {
        Properties props = DecisionStreamsConfig.build(CONNECTION, new StreamsOptions("app", ProcessingGuarantee.AT_LEAST_ONCE,
                null, null, null, 1, (short) 0, 1, 5, 500));
        // unresolved: the broker's default
        assertThat(props).containsEntry("replication.factor", -1);
        DecisionStreamsConfig.useReplication(props, (short) 3, 2, 5_000L);
        assertThat(props).containsEntry("replication.factor", 3).containsEntry("topic.min.insync.replicas", "2");
        new StreamsConfig(props);
    }

    @Test
    void exactly_once_commits_every_10_ms_on_one_broker_and_every_100_ms_on_replicated_topics() {
        StreamsOptions leftToTheCluster = new StreamsOptions("app", ProcessingGuarantee.EXACTLY_ONCE_V2, null, null, null, 1,
                (short) 0, 1, 5, 500);
        Properties props = DecisionStreamsConfig.build(CONNECTION, leftToTheCluster);
        assertThat(props).containsEntry("commit.interval.ms", 10L);
        assertThat(leftToTheCluster.effectiveCommitIntervalMs((short) 1)).isEqualTo(10L);
        assertThat(leftToTheCluster.effectiveCommitIntervalMs((short) 3)).isEqualTo(100L);
        DecisionStreamsConfig.useReplication(props, (short) 3, 2, leftToTheCluster.effectiveCommitIntervalMs((short) 3));
        assertThat(props).containsEntry("commit.interval.ms", 100L);
        // an interval set by the operator is kept whatever the replication
        StreamsOptions explicit = new StreamsOptions("app", ProcessingGuarantee.EXACTLY_ONCE_V2, 30L, null, null, 1,
                (short) 0, 1, 5, 500);
        assertThat(explicit.effectiveCommitIntervalMs((short) 3)).isEqualTo(30L);
        // at-least-once commits rarely either way
        assertThat(ProcessingGuarantee.AT_LEAST_ONCE.defaultCommitIntervalMs((short) 3)).isEqualTo(5_000L);
    }

    @Test
    void the_instance_id_is_kept_in_the_state_directory(@org.junit.jupiter.api.io.TempDir java.nio.file.Path stateDir) {
        String first = FailoverOptions.persistentInstanceId(stateDir, "gateway-decision-stream");
        assertThat(first).startsWith("gateway-decision-stream-");
        // the same on every later start (a restart after kill -9 rejoins as the same static member)
        assertThat(FailoverOptions.persistentInstanceId(stateDir, "gateway-decision-stream")).isEqualTo(first);
        // another instance (another state directory) has another id
        assertThat(FailoverOptions.persistentInstanceId(stateDir.resolve("other"), "gateway-decision-stream")).isNotEqualTo(first);
    }

    /**
     * A broker that dies without a reset (its host gone) must be given up on within a failover by every client Streams
     * makes, not after Kafka's 30 s request and 60 s call bounds: the producer, the main and restore consumers (the
     * state updater's) and the admin client.
     */
    @Test
    void every_client_of_the_stream_gives_up_on_a_silent_broker_within_a_failover() {
        StreamsConfig config = new StreamsConfig(DecisionStreamsConfig.build(CONNECTION, StreamsOptions.defaults()));
        Map<String, Object> mainConsumer = config.getMainConsumerConfigs("group", "client", 0);
        Map<String, Object> restoreConsumer = config.getRestoreConsumerConfigs("client");
        Map<String, Object> producer = config.getProducerConfigs("client");
        Map<String, Object> admin = config.getAdminConfigs("client");
        for (Map<String, Object> client : java.util.List.of(mainConsumer, restoreConsumer, producer, admin)) {
            assertThat(String.valueOf(client.get("request.timeout.ms"))).isEqualTo("5000");
            assertThat(String.valueOf(client.get("socket.connection.setup.timeout.ms"))).isEqualTo("2000");
            assertThat(String.valueOf(client.get("socket.connection.setup.timeout.max.ms"))).isEqualTo("8000");
        }
        for (Map<String, Object> client : java.util.List.of(mainConsumer, restoreConsumer, admin)) {
            assertThat(String.valueOf(client.get("default.api.timeout.ms"))).isEqualTo("15000");
        }
        // a changelog or the notifications topic written rarely must not send the stream thread back to waitOnMetadata
        assertThat(String.valueOf(producer.get("metadata.max.idle.ms")))
                .isEqualTo(String.valueOf(java.time.Duration.ofDays(365).toMillis()));
    }

    @Test
    void an_operators_own_client_setting_wins_over_the_gateways_timeouts() {
        Map<String, Object> connection = new java.util.HashMap<>(CONNECTION);
        connection.put("request.timeout.ms", 9000);
        StreamsConfig config = new StreamsConfig(DecisionStreamsConfig.build(connection, StreamsOptions.defaults()));
        assertThat(String.valueOf(config.getMainConsumerConfigs("group", "client", 0).get("request.timeout.ms"))).isEqualTo("9000");
        assertThat(String.valueOf(config.getProducerConfigs("client").get("request.timeout.ms"))).isEqualTo("9000");
    }
}
