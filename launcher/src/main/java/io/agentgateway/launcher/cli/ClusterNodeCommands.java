package io.agentgateway.launcher.cli;

import io.agentgateway.embeddedinfra.EmbeddedKafkaBroker;
import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code broker} and {@code postgres}: one Kafka node (KRaft, broker and controller) or a PostgreSQL, each
 * in a process of its own, from the classes already in this jar: the parts of a cluster on one machine
 * without Docker ({@code scripts/local-cluster.sh}, the fault suite). Both run until SIGTERM/SIGINT and
 * then stop cleanly; the PostgreSQL one refuses a data directory another live process uses and stops an
 * orphan of a killed one first ({@code EmbeddedPostgresServer}).
 */
public final class ClusterNodeCommands {
    private ClusterNodeCommands() {}

    /**
     * {@code broker --node-id 1 --port 39092 --controller-port 39093 --voters 1@127.0.0.1:39093,...
     * --cluster-id <uuid> --data-dir <dir> [--set key=value ...]}
     */
    public static int broker(List<String> args) throws InterruptedException {
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            if (args.get(i).equals("--set")) {
                String[] kv = args.get(i + 1).split("=", 2);
                overrides.put(kv[0], kv.length > 1 ? kv[1] : "");
            } else {
                options.put(args.get(i), args.get(i + 1));
            }
        }
        for (String required : List.of("--node-id", "--port", "--controller-port", "--voters", "--cluster-id", "--data-dir")) {
            if (!options.containsKey(required)) {
                System.err.println("broker: " + required + " is required");
                return 2;
            }
        }
        EmbeddedKafkaBroker broker;
        try {
            broker = EmbeddedKafkaBroker.startClusterNode(Path.of(options.get("--data-dir")),
                    Integer.parseInt(options.get("--node-id")), Integer.parseInt(options.get("--port")),
                    Integer.parseInt(options.get("--controller-port")), options.get("--voters"), options.get("--cluster-id"),
                    overrides);
        } catch (RuntimeException e) {
            // the server's own threads would keep a half-started process alive: say why and leave
            System.err.println("broker: did not start: " + e.getMessage());
            Runtime.getRuntime().halt(1);
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "broker-shutdown"));
        System.out.println("READY broker " + options.get("--node-id") + " " + broker.bootstrapServers());
        System.out.flush();
        broker.awaitShutdown();
        return 0;
    }

    /** {@code postgres --data-dir <dir> --port 35432}: with the database {@code gateway}; user and password {@code postgres}. */
    public static int postgres(List<String> args) throws InterruptedException {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            options.put(args.get(i), args.get(i + 1));
        }
        if (!options.containsKey("--data-dir") || !options.containsKey("--port")) {
            System.err.println("postgres: --data-dir and --port are required");
            return 2;
        }
        EmbeddedPostgresServer server;
        try {
            server = EmbeddedPostgresServer.start(Path.of(options.get("--data-dir")), Integer.parseInt(options.get("--port")));
        } catch (IllegalStateException e) {
            System.err.println("postgres: " + e.getMessage());
            return 1;
        }
        server.ensureDatabase("gateway");
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "postgres-shutdown"));
        System.out.println("READY postgres " + server.jdbcUrl("gateway"));
        System.out.flush();
        Thread.currentThread().join();
        return 0;
    }
}
