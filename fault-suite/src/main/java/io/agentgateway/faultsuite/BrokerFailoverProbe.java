package io.agentgateway.faultsuite;

import io.agentgateway.schemas.kafka.TopicProvisioner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The brokers alone: 3 nodes, the gateway's topics, a producer with the ingress's settings (acks=all,
 * 3 s delivery timeout) writing 20 records a second, and one broker killed; prints per second what was
 * acknowledged and each commands partition's leader and ISR. For looking at broker failover without the
 * services around it ({@code -Dloader.main=io.agentgateway.faultsuite.BrokerFailoverProbe}).
 */
public final class BrokerFailoverProbe {
    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("org.apache.kafka"))
                .setLevel(ch.qos.logback.classic.Level.ERROR);
        Path repo = Path.of(System.getProperty("gateway.repo", ".")).toAbsolutePath();
        try (LocalCluster cluster = new LocalCluster(repo, Files.createTempDirectory("gateway-probe-"), "at_least_once")) {
            cluster.startBrokersOnly();
            TopicProvisioner.ensureTopics(cluster.bootstrapServers(), new TopicProvisioner.Layout(6, 4, (short) 0));
            Properties props = new Properties();
            props.put("bootstrap.servers", cluster.bootstrapServers());
            props.putAll(Map.of("acks", "all", "enable.idempotence", "true", "linger.ms", "0", "max.block.ms", "1000",
                    "request.timeout.ms", "2000", "delivery.timeout.ms", "3000"));
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
                 Admin admin = cluster.admin()) {
                AtomicInteger ok = new AtomicInteger();
                AtomicInteger failed = new AtomicInteger();
                int victim = -1;
                for (int second = 0; second < 40; second++) {
                    for (int i = 0; i < 20; i++) {
                        try {
                            producer.send(new ProducerRecord<>("gateway.commands.v1", "k" + i, "v"), (m, e) -> {
                                (e == null ? ok : failed).incrementAndGet();
                            });
                        } catch (RuntimeException e) {
                            failed.incrementAndGet();
                        }
                        Thread.sleep(50);
                    }
                    if (second == 5) {
                        TopicDescription d = admin.describeTopics(List.of("gateway.commands.v1")).allTopicNames()
                                .get(5, TimeUnit.SECONDS).get("gateway.commands.v1");
                        // -Dprobe.victim=controller: the active KRaft controller (brokers here are controllers too)
                        victim = "controller".equals(System.getProperty("probe.victim"))
                                ? admin.describeMetadataQuorum().quorumInfo().get(5, TimeUnit.SECONDS).leaderId()
                                : d.partitions().get(0).leader().id();
                        LocalCluster.log("killing broker " + victim);
                        cluster.brokers.get(victim - 1).kill9();
                    }
                    String layout;
                    try {
                        TopicDescription d = admin.describeTopics(List.of("gateway.commands.v1")).allTopicNames()
                                .get(2, TimeUnit.SECONDS).get("gateway.commands.v1");
                        layout = d.partitions().stream().map(p -> p.partition() + ":" + (p.leader() == null ? "-" : p.leader().id())
                                + p.isr().stream().map(n -> "" + n.id()).toList()).toList().toString();
                    } catch (Exception e) {
                        layout = "describe failed: " + e.getClass().getSimpleName();
                    }
                    LocalCluster.log("s" + second + " acked " + ok.getAndSet(0) + " failed " + failed.getAndSet(0) + " " + layout);
                }
            }
        }
        System.exit(0);
    }
}
