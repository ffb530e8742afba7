package io.agentgateway.benchmark;

import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.backtest.BacktestRequest;
import io.agentgateway.backtest.Backtester;
import io.agentgateway.benchmark.data.DecidedHistory;
import io.agentgateway.embeddedinfra.EmbeddedKafkaBroker;
import io.agentgateway.launcher.cli.CliLogging;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * How fast a back-test replays history: writes {@code bench.backtestEvents} (200,000) events of one
 * workspace, decided by the decision stream's own handlers, to a real (embedded) broker, with other
 * workspaces' events on the same topic ({@code bench.backtestNeighbours}, 0.25 per event, a quarter
 * of which share the workspace's partition), then times back-tests of the whole history under a
 * candidate policy set. Target: at least 20,000 events/s on the 2-core machine.
 *
 * <p>Run: {@code ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests && java -Xms512m -Xmx1g -XX:MaxTenuringThreshold=2
 * -Dloader.main=io.agentgateway.benchmark.BacktestBenchmark -cp benchmark/target/benchmark.jar
 * org.springframework.boot.loader.launch.PropertiesLauncher}
 */
public final class BacktestBenchmark {
    private BacktestBenchmark() {}

    public static void main(String[] args) throws Exception {
        long events = Long.getLong("bench.backtestEvents", 200_000);
        double neighbours = Double.parseDouble(System.getProperty("bench.backtestNeighbours", "0.25"));
        int runs = Integer.getInteger("bench.backtestRuns", 3);
        // without Spring, Logback's fallback would print the broker's DEBUG lines between the figures
        CliLogging.quiet();

        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start(null, 0)) {
            String bootstrap = kafka.bootstrapServers();
            TopicProvisioner.ensureTopics(bootstrap, new TopicProvisioner.Layout(6, 4, (short) 1));
            DecidedHistory history = new DecidedHistory();
            long started = System.nanoTime();
            long written = write(bootstrap, history, events, neighbours);
            System.out.printf(Locale.ROOT, "wrote %,d events of workspace %s (+ %,d of other workspaces) in %.1f s%n",
                    events, history.workspaceId, written - events, seconds(started));

            Backtester backtester = new Backtester(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                    new Backtester.Limits(Duration.ofSeconds(10), Duration.ofMinutes(10), 5));
            BacktestRequest request = new BacktestRequest(history.workspaceId, candidate(),
                    Instant.parse("2026-01-01T00:00:00Z"), history.now().plusSeconds(1));
            System.out.println("warm-up run (JIT) ...");
            backtester.run(request);
            double best = 0;
            for (int run = 1; run <= runs; run++) {
                long t0 = System.nanoTime();
                BacktestReport report = backtester.run(request);
                double s = seconds(t0);
                BacktestReport.History read = report.history();
                double rate = read.workspaceEvents() / s;
                best = Math.max(best, rate);
                System.out.printf(Locale.ROOT, "run %d: %,d events replayed (%,d records read) in %.2f s = %,.0f events/s; "
                                + "evaluated %,d, would change %,d, reproduction mismatches %,d, version gaps %,d%n",
                        run, read.workspaceEvents(), read.recordsRead(), s, rate, report.totals().evaluated(),
                        report.totals().changed(), report.totals().mismatches(), read.versionGaps());
                if (report.totals().mismatches() != 0) {
                    System.out.println("  NOT REPRODUCED, first: " + report.mismatches().get(0));
                }
            }
            System.out.printf(Locale.ROOT, "%nback-test: %,.0f events/s (best of %d runs; target >= 20,000)%n", best, runs);
        }
    }

    private static long write(String bootstrap, DecidedHistory history, long events, double neighbours) throws Exception {
        List<String> others = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString(), UUID.randomUUID().toString(),
                UUID.randomUUID().toString());
        Random random = new Random(7);
        long[] written = {0};
        try (KafkaProducer<String, EventEnvelope> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024),
                Topics.EVENTS.keySerde().serializer(), Topics.EVENTS.valueSerde().serializer())) {
            history.emit(events, event -> {
                producer.send(new ProducerRecord<>(Topics.EVENTS.name(), event.workspaceId(), event));
                written[0]++;
                if (random.nextDouble() < neighbours) {
                    // the same kind of event for another workspace: read past (when on the same partition), never replayed
                    String other = others.get(random.nextInt(others.size()));
                    producer.send(new ProducerRecord<>(Topics.EVENTS.name(), other, new EventEnvelope(event.schemaVersion(),
                            UUID.randomUUID().toString(), other, event.commandId(), event.correlationId(), event.occurredAt(),
                            event.actor(), event.workspaceVersion(), event.policySetVersion(), event.event())));
                    written[0]++;
                }
            });
            producer.flush();
        }
        return written[0];
    }

    /** Bots may not merge, deletes need approval, doc reads are always fine. */
    private static List<Policy> candidate() {
        return List.of(
                new Policy(UUID.randomUUID().toString(), "no bot merges", 10, true, Decision.BLOCK,
                        new PolicyMatch(Set.of(Tool.CODE_HOST), List.of("pull_request.merge"), Set.of(), List.of("bot-*", "*-bot"),
                                List.of(), List.of(), Set.of()), null),
                new Policy(UUID.randomUUID().toString(), "deletes need approval", 20, true, Decision.REQUIRE_APPROVAL,
                        new PolicyMatch(Set.of(), List.of("*.delete", "delete_*"), Set.of(), List.of(), List.of(), List.of(), Set.of()), null),
                new Policy(UUID.randomUUID().toString(), "doc reads", 30, true, Decision.ALLOW,
                        new PolicyMatch(Set.of(Tool.DOCS), List.of("page.read"), Set.of(), List.of(), List.of(), List.of(), Set.of()), null));
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
