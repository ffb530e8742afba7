package io.agentgateway.decisionstream.runtime;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once only: the transaction an instance of this decision stream left open when it died is aborted as soon as
 * the group has dropped that instance, not when the transaction times out.
 *
 * <p>Until it is aborted, an open transaction holds back every read_committed reader of the partitions it wrote: the
 * ingress's reply partitions, which every instance writes to, so the surviving instances' answers wait too, and the
 * changelogs the survivors restore the dead instance's tasks from. Its timeout is chosen longer than a broker's
 * failover ({@link FailoverOptions#transactionTimeoutMs()}) so that a transaction open while its coordinator moves
 * survives; for a dead instance that would be the outage. So each time this instance is RUNNING after a rebalance it
 * asks which instances the group holds, and for each one the group held before and has dropped since, it initialises a
 * producer with that instance's transactional ids (Kafka Streams' {@code <application.id>-<process id>-<thread>}, the
 * process id being the one its members' client ids carry) and lets it go. Initialising a transactional id bumps its
 * epoch: the coordinator aborts the open transaction and fences the old producer, which is what the group's new
 * generation already asks of it. An instance that left cleanly had committed; fencing its ids changes nothing, and its
 * next start fences them again itself.
 *
 * <p>Runs on a thread of its own, never on a stream thread; a failure is logged and the transaction then times out as
 * before. Members whose client ids are not Streams' defaults (an operator's own {@code client.id}) are not recognised and
 * are left to the timeout.
 */
final class DepartedInstanceFencing implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DepartedInstanceFencing.class);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);

    private final String applicationId;
    private final Map<String, Object> adminConfig;
    private final Map<String, Object> producerConfig;
    private final Pattern memberClientId;
    private final ExecutorService worker;
    /** The instances (process id → the stream threads seen) the group held at the last look; this thread only. */
    private Map<String, Set<Integer>> seen = Map.of();

    DepartedInstanceFencing(Properties streamsConfig) {
        StreamsConfig config = new StreamsConfig(streamsConfig);
        this.applicationId = config.getString(StreamsConfig.APPLICATION_ID_CONFIG);
        this.adminConfig = config.getAdminConfigs(applicationId + "-fencing-admin");
        this.producerConfig = new HashMap<>(config.getProducerConfigs(applicationId + "-fencing"));
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) CALL_TIMEOUT.toMillis());
        this.memberClientId = memberClientIdPattern(applicationId);
        // one look at a time; a rebalance while one runs asks for one more at most
        this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(1), work -> {
            Thread thread = new Thread(work, "decision-stream-fencing");
            thread.setDaemon(true);
            return thread;
        }, new ThreadPoolExecutor.DiscardPolicy());
    }

    /** Streams' default client id of a member's consumer: {@code <application.id>-<process id>-StreamThread-<n>-consumer}. */
    static Pattern memberClientIdPattern(String applicationId) {
        return Pattern.compile(Pattern.quote(applicationId)
                + "-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-StreamThread-(\\d+)-consumer");
    }

    /** The instances the members' client ids name, each with its stream threads; ids of another form are left out. */
    static Map<String, Set<Integer>> instancesOf(Iterable<String> clientIds, Pattern memberClientId) {
        Map<String, Set<Integer>> instances = new HashMap<>();
        for (String clientId : clientIds) {
            Matcher matcher = memberClientId.matcher(clientId == null ? "" : clientId);
            if (matcher.matches()) {
                instances.computeIfAbsent(matcher.group(1), id -> new TreeSet<>()).add(Integer.parseInt(matcher.group(2)));
            }
        }
        return instances;
    }

    /** The transactional ids of the instances held before and not now. */
    static Set<String> departedTransactionalIds(String applicationId, Map<String, Set<Integer>> before,
                                                Map<String, Set<Integer>> now) {
        Set<String> ids = new TreeSet<>();
        before.forEach((processId, threads) -> {
            if (!now.containsKey(processId)) {
                threads.forEach(thread -> ids.add(applicationId + "-" + processId + "-" + thread));
            }
        });
        return ids;
    }

    /** This instance is RUNNING after a rebalance: look at the group, fence whoever it dropped. Returns at once. */
    void groupSettled() {
        worker.execute(this::look);
    }

    /** What {@link #groupSettled()} does, on the caller's thread. */
    void look() {
        try (Admin admin = Admin.create(adminConfig)) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(Set.of(applicationId)).all()
                    .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(applicationId);
            if (group.groupState() != GroupState.STABLE) {
                return; // members may be between leaving and rejoining: the next RUNNING looks again
            }
            Set<String> clientIds = new HashSet<>();
            for (MemberDescription member : group.members()) {
                clientIds.add(member.clientId());
            }
            Map<String, Set<Integer>> now = instancesOf(clientIds, memberClientId);
            Set<String> departed = departedTransactionalIds(applicationId, seen, now);
            seen = now;
            for (String transactionalId : departed) {
                fence(transactionalId);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("could not look for decision stream instances the group dropped ({}); a transaction such an instance"
                    + " left open is aborted at its timeout", e.toString());
        }
    }

    void fence(String transactionalId) {
        Map<String, Object> config = new HashMap<>(producerConfig);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, applicationId + "-fencing");
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            log.info("fenced {}, whose instance the group dropped: a transaction it left open is aborted ({} ms)",
                    transactionalId, (System.nanoTime() - start) / 1_000_000);
        } catch (KafkaException e) {
            log.warn("could not fence {} ({}); a transaction it left open is aborted at its timeout", transactionalId,
                    e.toString());
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
