package io.agentgateway.faultsuite;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * A diagnosis aid for the broker faults ({@code -Dfaults.watchPartitions=true}): every second, the leader,
 * in-sync replicas and eligible leader replicas of the gateway's topics, printed whenever they change, so a
 * run shows when the controller moved leaders and shrank the ISRs relative to the fault.
 */
final class PartitionWatch implements AutoCloseable {
    private static final List<String> TOPICS = List.of("gateway.commands.v1", "gateway.replies.v1", "gateway.events.v1");

    private final Thread thread;
    private volatile boolean running = true;

    private PartitionWatch(LocalCluster cluster) {
        long start = System.currentTimeMillis();
        thread = new Thread(() -> {
            String last = "";
            try (Admin admin = cluster.admin()) {
                while (running) {
                    String now;
                    try {
                        Map<String, TopicDescription> topics = admin.describeTopics(TOPICS).allTopicNames()
                                .get(3, TimeUnit.SECONDS);
                        now = describe(topics);
                    } catch (Exception e) {
                        now = "describe failed: " + e.getClass().getSimpleName();
                    }
                    if (!now.equals(last)) {
                        LocalCluster.log(String.format("partitions at +%.1f s:%n%s",
                                (System.currentTimeMillis() - start) / 1000.0, now));
                        last = now;
                    }
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "partition-watch");
        thread.setDaemon(true);
    }

    static PartitionWatch start(LocalCluster cluster) {
        PartitionWatch watch = new PartitionWatch(cluster);
        watch.thread.start();
        return watch;
    }

    private static String describe(Map<String, TopicDescription> topics) {
        Map<String, String> lines = new LinkedHashMap<>();
        for (String topic : TOPICS) {
            TopicDescription description = topics.get(topic);
            lines.put(topic, description.partitions().stream().map(PartitionWatch::partition)
                    .collect(Collectors.joining("  ")));
        }
        return lines.entrySet().stream().map(e -> "  " + e.getKey() + "  " + e.getValue())
                .collect(Collectors.joining(System.lineSeparator()));
    }

    private static String partition(TopicPartitionInfo p) {
        return p.partition() + ":L" + (p.leader() == null ? "-" : p.leader().id()) + " isr" + ids(p.isr())
                + (p.elr() == null || p.elr().isEmpty() ? "" : " elr" + ids(p.elr()));
    }

    private static String ids(List<Node> nodes) {
        return nodes.stream().map(n -> "" + n.id()).collect(Collectors.joining(",", "[", "]"));
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
