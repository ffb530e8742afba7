package io.agentgateway.benchmark;

import io.agentgateway.adminapi.export.AuditExport;
import io.agentgateway.adminapi.export.AuditExportFilter;
import io.agentgateway.adminapi.export.AuditExportFormat;
import io.agentgateway.benchmark.data.AuditRowsFiller;
import io.agentgateway.benchmark.gateway.BenchmarkGateway;
import io.agentgateway.benchmark.measure.LiveHeap;
import io.agentgateway.benchmark.peers.ExportSink;
import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.WorkspaceBootstrap;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The audit export in constant memory: fills the embedded default's PostgreSQL with a million audit
 * rows, then exports 10,000 and 1,000,000 of them, as JSON Lines and as CSV, through the export core
 * (JDBC cursor → writer) and through the admin API over HTTP, each into a sink that discards the
 * bytes. During each run the live heap (heap used after a full GC) is sampled ten times while rows
 * are streaming; constant memory means the big export's peak is about the small one's.
 *
 * <p>Run: {@code ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests && java -Xms512m -Xmx1g -XX:MaxTenuringThreshold=2
 * -Dloader.main=io.agentgateway.benchmark.ExportBenchmark -cp benchmark/target/benchmark.jar
 * org.springframework.boot.loader.launch.PropertiesLauncher}. Options: {@code bench.exportRows}
 * (1000000), {@code bench.exportSmallRows} (10000).
 */
public final class ExportBenchmark {
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final int SAMPLES_PER_RUN = 10;

    private record Run(String path, AuditExportFormat format, long rows, long bytes, double seconds, long liveHeap, long baseline) {
        double rowsPerSecond() {
            return rows / seconds;
        }
    }

    private interface Exporter {
        long export(AuditExportFilter filter, AuditExportFormat format, ExportSink sink) throws Exception;
    }

    private ExportBenchmark() {}

    public static void main(String[] args) throws Exception {
        int bigRows = Integer.getInteger("bench.exportRows", 1_000_000);
        int smallRows = Integer.getInteger("bench.exportSmallRows", 10_000);
        try (EmbeddedGateway gateway = EmbeddedGateway.start(
                LauncherSettings.ephemeral(Files.createTempDirectory("gateway-export-bench-")), BenchmarkGateway.PROPERTIES)) {
            GatewayHttpClient admin = new GatewayHttpClient(gateway.baseUrl());
            String jwt = DevJwts.sign(gateway.secrets().jwtSecret(), "bench-owner", "bench@local", Duration.ofHours(2));
            UUID workspace = UUID.fromString(WorkspaceBootstrap.create(admin, gateway.operatorJwt(), jwt, "export benchmark", List.of("evaluate")).workspaceId());
            try (Connection db = DriverManager.getConnection(gateway.jdbcUrl(), gateway.postgresUser(), gateway.postgresPassword())) {
                long fillStart = System.nanoTime();
                AuditRowsFiller.fill(db, workspace, START, bigRows);
                System.out.printf(Locale.ROOT, "%n%,d audit rows inserted in %.1f s%n", bigRows, (System.nanoTime() - fillStart) / 1e9);
                awaitAdminReads(admin, workspace, jwt);

                Exporter core = (filter, format, sink) -> AuditExport.write(db, filter, format, sink);
                Exporter api = new ApiExporter(gateway.baseUrl(), jwt);
                AuditExportFilter small = AuditExportFilter.range(workspace, START, START.plusMillis(smallRows));
                AuditExportFilter big = AuditExportFilter.range(workspace, START, START.plusMillis(bigRows));

                // JIT warm-up on the small export, every path and format
                for (int i = 0; i < 5; i++) {
                    for (AuditExportFormat format : AuditExportFormat.values()) {
                        core.export(small, format, new ExportSink(new LiveHeap(), Long.MAX_VALUE));
                        api.export(small, format, new ExportSink(new LiveHeap(), Long.MAX_VALUE));
                    }
                }
                List<Run> runs = new ArrayList<>();
                for (String path : List.of("core", "api")) {
                    for (AuditExportFormat format : AuditExportFormat.values()) {
                        Exporter exporter = path.equals("core") ? core : api;
                        runs.add(measure(path, exporter, small, smallRows, format));
                        runs.add(measure(path, exporter, big, bigRows, format));
                    }
                }
                print(runs, smallRows, bigRows);
            }
        }
        System.exit(0);
    }

    private static Run measure(String path, Exporter exporter, AuditExportFilter filter, int expectedRows, AuditExportFormat format)
            throws Exception {
        long baseline = LiveHeap.now();
        LiveHeap heap = new LiveHeap();
        ExportSink sink = new ExportSink(heap, Math.max(1, expectedRows / SAMPLES_PER_RUN));
        long start = System.nanoTime();
        long rows = exporter.export(filter, format, sink);
        double seconds = (System.nanoTime() - start - heap.sampleNanos()) / 1e9;
        if (rows != expectedRows) {
            throw new IllegalStateException(path + " " + format.wire() + " exported " + rows + " rows, expected " + expectedRows);
        }
        return new Run(path, format, rows, sink.bytes(), seconds, heap.peakBytes(), baseline);
    }

    private static void print(List<Run> runs, int smallRows, int bigRows) {
        System.out.printf(Locale.ROOT, "%n%-5s %-6s %10s %9s %8s %10s %16s %16s%n",
                "path", "format", "rows", "MiB", "seconds", "rows/s", "live heap MiB", "above idle MiB");
        for (Run run : runs) {
            System.out.printf(Locale.ROOT, "%-5s %-6s %,10d %9.1f %8.2f %,10.0f %16.1f %16.1f%n", run.path(), run.format().wire(),
                    run.rows(), run.bytes() / 1048576.0, run.seconds(), run.rowsPerSecond(), mib(run.liveHeap()),
                    mib(run.liveHeap() - run.baseline()));
        }
        System.out.printf(Locale.ROOT, "%nlive heap while streaming, %,d rows / %,d rows (constant memory: about 1.0):%n", bigRows, smallRows);
        for (int i = 0; i + 1 < runs.size(); i += 2) {
            Run smallRun = runs.get(i);
            Run bigRun = runs.get(i + 1);
            System.out.printf(Locale.ROOT, "  %-5s %-6s %.2f   (%+.1f MiB)%n", bigRun.path(), bigRun.format().wire(),
                    (double) bigRun.liveHeap() / smallRun.liveHeap(), mib(bigRun.liveHeap() - smallRun.liveHeap()));
        }
    }

    private static double mib(long bytes) {
        return bytes / 1048576.0;
    }

    private static void awaitAdminReads(GatewayHttpClient admin, UUID workspace, String jwt) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (admin.send("GET", "/admin/v1/workspaces/" + workspace + "/audit-log?limit=1", jwt, null).status() == 200) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the workspace's owner was not projected within 10 s");
    }

    /** GET .../audit-log/export, read as it arrives. */
    private static final class ApiExporter implements Exporter {
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        private final String baseUrl;
        private final String jwt;

        ApiExporter(String baseUrl, String jwt) {
            this.baseUrl = baseUrl;
            this.jwt = jwt;
        }

        @Override
        public long export(AuditExportFilter filter, AuditExportFormat format, ExportSink sink) throws Exception {
            URI uri = URI.create(baseUrl + "/admin/v1/workspaces/" + filter.workspaceId() + "/audit-log/export?from="
                    + filter.from() + "&to=" + filter.to() + "&format=" + format.wire());
            HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + jwt).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                if (response.statusCode() != 200) {
                    throw new IllegalStateException("export answered " + response.statusCode() + ": " + new String(body.readAllBytes()));
                }
                body.transferTo(sink);
            }
            // CSV has a header line, JSON Lines none
            return format == AuditExportFormat.CSV ? sink.lines() - 1 : sink.lines();
        }
    }
}
