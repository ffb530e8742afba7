package io.agentgateway.projector;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The gauges an operator watches that no single record tells, refreshed in the background every
 * {@code gateway.projector.operator-gauges-interval} (never on the scrape, which must not wait for the broker or the
 * database):
 * <ul>
 *   <li>{@value #CONSUMER_LAG} by {@code group}: records not yet consumed by each consumer group of the cluster (the
 *       decision stream's application id, the projector, the notifier's lanes, the approval executors, the read
 *       caches), summed over its partitions: committed offset to log end;</li>
 *   <li>{@value #OPEN_APPROVALS}: approvals pending a review, as the read model has them.</li>
 * </ul>
 * A refresh that fails keeps the last values and says so at DEBUG; the gauges of a group appear once it is seen.
 */
public final class OperatorGauges implements MeterBinder, AutoCloseable {
    public static final String CONSUMER_LAG = "gateway.kafka.consumer.lag";
    public static final String OPEN_APPROVALS = "gateway.approvals.open";
    private static final Logger log = LoggerFactory.getLogger(OperatorGauges.class);
    private static final long CALL_TIMEOUT_SECONDS = 10;

    private final Map<String, Object> adminConfig;
    private final JdbcClient jdbc;
    private final Duration interval;
    private final ConcurrentMap<String, AtomicLong> lagByGroup = new ConcurrentHashMap<>();
    private final AtomicLong openApprovals = new AtomicLong();
    private volatile MeterRegistry registry;
    private ScheduledExecutorService refresher;
    private Admin admin;

    public OperatorGauges(Map<String, Object> adminConfig, JdbcClient jdbc, Duration interval) {
        this.adminConfig = new HashMap<>(adminConfig);
        this.jdbc = jdbc;
        this.interval = interval;
    }

    @Override
    public synchronized void bindTo(MeterRegistry meters) {
        if (registry != null) {
            return;
        }
        registry = meters;
        Gauge.builder(OPEN_APPROVALS, openApprovals, AtomicLong::get).description("approvals pending a review").register(meters);
        refresher = Executors.newSingleThreadScheduledExecutor(work -> {
            Thread thread = new Thread(work, "operator-gauges");
            thread.setDaemon(true);
            return thread;
        });
        refresher.scheduleWithFixedDelay(this::refresh, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void refresh() {
        try {
            Long pending = jdbc.sql("select count(*) from approval_requests where status = 'pending'").query(Long.class).single();
            openApprovals.set(pending == null ? 0 : pending);
        } catch (RuntimeException e) {
            log.debug("open approvals not counted: {}", e.toString());
        }
        try {
            refreshLag();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.debug("consumer lag not read: {}", e.toString());
        }
    }

    private void refreshLag() throws Exception {
        if (admin == null) {
            admin = Admin.create(adminConfig);
        }
        for (ConsumerGroupListing group : admin.listConsumerGroups().all().get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group.groupId())
                    .partitionsToOffsetAndMetadata().get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (committed.isEmpty()) {
                continue;
            }
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                    admin.listOffsets(latest).all().get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            long lag = 0;
            for (var entry : committed.entrySet()) {
                ListOffsetsResult.ListOffsetsResultInfo end = ends.get(entry.getKey());
                if (end != null && entry.getValue() != null) {
                    lag += Math.max(0, end.offset() - entry.getValue().offset());
                }
            }
            gaugeOf(group.groupId()).set(lag);
        }
    }

    private AtomicLong gaugeOf(String group) {
        return lagByGroup.computeIfAbsent(group, id -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder(CONSUMER_LAG, value, AtomicLong::get).description("records a consumer group has not consumed yet")
                    .tag("group", id).register(registry);
            return value;
        });
    }

    /** The groups seen so far (tests, diagnostics). */
    List<String> groups() {
        return List.copyOf(lagByGroup.keySet());
    }

    @Override
    public synchronized void close() {
        if (refresher != null) {
            refresher.shutdownNow();
            try {
                refresher.awaitTermination(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }
}
