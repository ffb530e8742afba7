package io.agentgateway.projector;

import static io.agentgateway.projector.Eventually.eventually;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.Utils;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One evaluation in every partition of the events topic, published last: once a projection has the
 * audit rows of all of them, it has handled every record before them (one partition is one order, and
 * the tests of a JVM run one after the other, so nobody else publishes meanwhile).
 */
final class PartitionMarkers {
    private final List<WorkspaceEvents> perPartition;

    private PartitionMarkers(List<WorkspaceEvents> perPartition) {
        this.perPartition = perPartition;
    }

    /** A workspace id for each partition, found the way the producer's default partitioner places a key. */
    static PartitionMarkers forEveryPartition() {
        int partitions = partitionCount();
        List<WorkspaceEvents> workspaces = new ArrayList<>();
        for (int partition = 0; partition < partitions; partition++) {
            String id;
            do {
                id = UUID.randomUUID().toString();
            } while (partitionOf(id, partitions) != partition);
            workspaces.add(new WorkspaceEvents(id));
        }
        return new PartitionMarkers(workspaces);
    }

    /** Publishes a marker in every partition and waits until every given database has all of them. */
    void publishAndAwait(EventPublisher publisher, JdbcTemplate... databases) {
        List<String> auditIds = new ArrayList<>();
        List<EventEnvelope> markers = new ArrayList<>();
        for (WorkspaceEvents ws : perPartition) {
            EventEnvelope marker = ws.evaluation("marker.read");
            markers.add(marker);
            auditIds.add(DerivedIds.auditLogId(marker.commandId()));
        }
        publisher.publish(markers);
        for (JdbcTemplate jdbc : databases) {
            eventually().until(() -> jdbc.queryForObject("select count(*) from audit_log where id = any(?::uuid[])",
                    Long.class, (Object) auditIds.toArray(String[]::new)), count -> count == auditIds.size());
        }
    }

    private static int partitionCount() {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                SharedTestInfra.kafka().bootstrapServers()))) {
            return admin.describeTopics(List.of(Topics.EVENTS.name())).allTopicNames().get()
                    .get(Topics.EVENTS.name()).partitions().size();
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe the events topic", e);
        }
    }

    private static int partitionOf(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
