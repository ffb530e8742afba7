package io.agentgateway.benchmark;

import io.agentgateway.benchmark.data.SyntheticEvidenceLog;
import io.agentgateway.benchmark.gateway.BenchmarkGateway;
import io.agentgateway.evidence.Checkpoint;
import io.agentgateway.evidence.EntryFields;
import io.agentgateway.evidence.EvidenceExport;
import io.agentgateway.evidence.EvidenceVerifier;
import io.agentgateway.evidence.ExportVerifier;
import io.agentgateway.evidence.ExportedEntry;
import io.agentgateway.evidence.Hashes;
import io.agentgateway.evidence.MerkleHasher;
import io.agentgateway.evidence.MerkleProofs;
import io.agentgateway.evidence.NodeId;
import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.evidence.SignedNote;
import io.agentgateway.evidence.VerificationReport;
import io.agentgateway.adminapi.evidence.EvidenceLogReader;
import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.WorkspaceBootstrap;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import org.HdrHistogram.Histogram;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * The audit log's evidence at scale (docs/benchmarks.md, "Evidence"):
 *
 * <ol>
 *   <li><b>Verifier throughput</b>: a complete evidence export of {@code bench.evidenceEntries} (1,000,000) audit
 *       entries with a signed checkpoint every 1,000, written to a temporary file, then checked by the offline verifier
 *       ({@code ExportVerifier}: JSON parsing, every entry's leaf, payload digests, the root at every checkpoint, every
 *       signature) {@code bench.evidenceRuns} (3) times; entries per second of each run.</li>
 *   <li><b>Inclusion proof latency</b>: the same log loaded into the embedded gateway's PostgreSQL (audit rows, entries,
 *       nodes, the checkpoint, by COPY), then {@code bench.proofRequests} (2,000) inclusion proofs of random audit
 *       entries through the admin API ({@code GET .../audit-log/{id}/inclusion-proof}, sequential, after 300 to warm up):
 *       p50, p95, p99, max; a sample of the proofs is checked against the signed root.</li>
 * </ol>
 *
 * <p>Run: {@code ./mvnw -B -ntp -q -pl benchmark -am package -DskipTests && java -Xms512m -Xmx1g
 * -Dloader.main=io.agentgateway.benchmark.EvidenceBenchmark -cp benchmark/target/benchmark.jar
 * org.springframework.boot.loader.launch.PropertiesLauncher}. {@code -Dbench.evidenceParts=verifier} or {@code proofs}
 * runs one part.
 */
public final class EvidenceBenchmark {
    private static final int CHECKPOINT_EVERY = 1_000;

    private EvidenceBenchmark() {}

    public static void main(String[] args) throws Exception {
        int entries = Integer.getInteger("bench.evidenceEntries", 1_000_000);
        String parts = System.getProperty("bench.evidenceParts", "verifier,proofs");
        if (parts.contains("verifier")) {
            verifierThroughput(entries, Integer.getInteger("bench.evidenceRuns", 3));
        }
        if (parts.contains("proofs")) {
            proofLatency(entries, Integer.getInteger("bench.proofRequests", 2_000));
        }
        System.exit(0);
    }

    // ---- 1. the offline verifier ----

    private static void verifierThroughput(int entries, int runs) throws Exception {
        NoteKeys.SignerKey key = NoteKeys.generate("bench.local/audit", new SecureRandom());
        UUID workspace = UUID.randomUUID();
        Path file = Files.createTempFile("evidence-bench-", ".jsonl");
        try {
            long start = System.nanoTime();
            writeExport(file, workspace, key, entries);
            System.out.printf(Locale.ROOT, "%nverifier: export of %,d entries written (%,d MB) in %.1f s%n", entries,
                    Files.size(file) >> 20, (System.nanoTime() - start) / 1e9);
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            for (int run = 1; run <= runs; run++) {
                long began = System.nanoTime();
                long cpuBegan = threads.getCurrentThreadCpuTime();
                VerificationReport report;
                try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                    report = ExportVerifier.verify(in, EvidenceVerifier.Options.pinned(List.of(key.verifier())));
                }
                double seconds = (System.nanoTime() - began) / 1e9;
                double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuBegan) / 1e9;
                if (!report.ok() || report.entriesChecked() != entries) {
                    throw new IllegalStateException("the benchmark's own export did not verify:\n" + report.render());
                }
                // the verifier is one thread: its CPU time is what it would take on a machine of its own
                System.out.printf(Locale.ROOT, "verifier run %d: %,d entries, %d checkpoints, root %s, in %.2f s: %,.0f entries/s"
                                + " (the verifying thread's CPU: %.2f s, %,.0f entries per CPU second)%n",
                        run, report.entriesChecked(), report.checkpoints(), report.computedRoot(), seconds, entries / seconds,
                        cpuSeconds, entries / cpuSeconds);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void writeExport(Path file, UUID workspace, NoteKeys.SignerKey key, int entries) throws Exception {
        // checkpoints come before the entries in the file: the log is made twice (entries are a pure function of i)
        SyntheticEvidenceLog first = new SyntheticEvidenceLog(workspace, key, CHECKPOINT_EVERY);
        List<String> checkpoints = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            String checkpoint = first.next().checkpoint();
            if (checkpoint != null) {
                checkpoints.add(checkpoint);
            }
        }
        if (entries % CHECKPOINT_EVERY != 0) {
            checkpoints.add(first.checkpoint());
        }
        SyntheticEvidenceLog log = new SyntheticEvidenceLog(workspace, key, CHECKPOINT_EVERY);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
             EvidenceExport.Writer writer = new EvidenceExport.Writer(out)) {
            writer.header(new EvidenceExport.Header(workspace.toString(), log.origin(), entries, true, null, null, 0,
                    Instant.now().toString()));
            writer.key(key.verifier().text());
            checkpoints.forEach(writer::checkpoint);
            for (int i = 0; i < entries; i++) {
                SyntheticEvidenceLog.Generated generated = log.next();
                writer.entry(new ExportedEntry(generated.entry(), generated.leaf(), generated.excerpt(), false, null));
            }
            writer.end();
        }
    }

    // ---- 2. inclusion proofs from PostgreSQL through the admin API ----

    private static void proofLatency(int entries, int requests) throws Exception {
        try (EmbeddedGateway gateway = EmbeddedGateway.start(
                LauncherSettings.ephemeral(Files.createTempDirectory("gateway-evidence-bench-")), BenchmarkGateway.PROPERTIES)) {
            GatewayHttpClient admin = new GatewayHttpClient(gateway.baseUrl());
            String jwt = DevJwts.sign(gateway.secrets().jwtSecret(), "bench-owner", "bench@local", Duration.ofHours(2));
            UUID workspace = UUID.fromString(WorkspaceBootstrap.create(admin, gateway.operatorJwt(), jwt, "evidence benchmark",
                    List.of("evaluate")).workspaceId());
            NoteKeys.SignerKey key = NoteKeys.parseSigner(gateway.secrets().evidenceSigningKey());
            String note;
            try (Connection db = DriverManager.getConnection(gateway.jdbcUrl(), gateway.postgresUser(), gateway.postgresPassword())) {
                long start = System.nanoTime();
                note = load(db, workspace, key, entries);
                System.out.printf(Locale.ROOT, "%nproofs: %,d entries with their audit rows and nodes loaded into PostgreSQL in %.1f s%n",
                        entries, (System.nanoTime() - start) / 1e9);
            }
            Checkpoint checkpoint = Checkpoint.parse(SignedNote.parse(note).text());
            Random random = new Random(42);
            MerkleHasher hasher = new MerkleHasher();
            for (int i = 0; i < 300; i++) {
                proof(admin, jwt, workspace, random.nextInt(entries));
            }
            Histogram micros = new Histogram(60_000_000L, 3);
            int checked = 0;
            for (int i = 0; i < requests; i++) {
                long sequence = random.nextInt(entries);
                long began = System.nanoTime();
                GatewayHttpClient.Response response = proof(admin, jwt, workspace, sequence);
                micros.recordValue((System.nanoTime() - began) / 1_000);
                if (i % 100 == 0) {
                    List<byte[]> path = new ArrayList<>();
                    response.body().get("proof").forEach(node -> path.add(Hashes.fromBase64(node.asString())));
                    byte[] leaf = Hashes.fromBase64(response.body().get("leafHash").asString());
                    if (!MerkleProofs.verifyInclusion(sequence, checkpoint.size(), leaf, path, checkpoint.rootHash(), hasher)) {
                        throw new IllegalStateException("the proof of " + sequence + " does not verify");
                    }
                    checked++;
                }
            }
            System.out.printf(Locale.ROOT, "inclusion proof through the admin API, %,d entries in the workspace, %,d requests"
                            + " (%d proofs verified against the signed root): p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                    entries, requests, checked, micros.getValueAtPercentile(50) / 1000.0, micros.getValueAtPercentile(95) / 1000.0,
                    micros.getValueAtPercentile(99) / 1000.0, micros.getMaxValue() / 1000.0);
            // the same proof in this process on one JDBC connection: what the database and the proof code take, without
            // HTTP, authentication and the pool (the read model's part of the answer)
            try (Connection db = DriverManager.getConnection(gateway.jdbcUrl(), gateway.postgresUser(), gateway.postgresPassword())) {
                EvidenceLogReader reader = new EvidenceLogReader(db, workspace);
                Histogram direct = new Histogram(60_000_000L, 3);
                for (int i = 0; i < requests + 300; i++) {
                    long sequence = random.nextInt(entries);
                    long began = System.nanoTime();
                    long found = reader.sequenceOfAuditRow(UUID.fromString(SyntheticEvidenceLog.uuid(sequence, 1))).orElseThrow();
                    long size = reader.latestCheckpoint().orElseThrow().treeSize();
                    MerkleProofs.inclusionProof(found, size, reader.nodes(), hasher);
                    if (i >= 300) {
                        direct.recordValue((System.nanoTime() - began) / 1_000);
                    }
                }
                System.out.printf(Locale.ROOT, "inclusion proof from the read model over JDBC (entry's sequence, latest checkpoint,"
                                + " nodes; no HTTP): p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                        direct.getValueAtPercentile(50) / 1000.0, direct.getValueAtPercentile(95) / 1000.0,
                        direct.getValueAtPercentile(99) / 1000.0, direct.getMaxValue() / 1000.0);
            }
        }
    }

    private static GatewayHttpClient.Response proof(GatewayHttpClient admin, String jwt, UUID workspace, long sequence) {
        GatewayHttpClient.Response response = admin.send("GET", "/admin/v1/workspaces/" + workspace + "/audit-log/"
                + SyntheticEvidenceLog.uuid(sequence, 1) + "/inclusion-proof", jwt, null);
        if (response.status() != 200) {
            throw new IllegalStateException("inclusion proof of " + sequence + ": " + response.status() + " " + response.rawBody());
        }
        return response;
    }

    /**
     * COPYs the log into the read model as the projector would have written it (audit rows with their sequence and leaf,
     * the nodes); returns the signed checkpoint.
     */
    private static String load(Connection db, UUID workspace, NoteKeys.SignerKey key, int entries) throws Exception {
        CopyManager copy = db.unwrap(PGConnection.class).getCopyAPI();
        SyntheticEvidenceLog log = new SyntheticEvidenceLog(workspace, key, Integer.MAX_VALUE);
        int batch = 50_000;
        StringBuilder audit = new StringBuilder(batch * 700);
        StringBuilder nodes = new StringBuilder(batch * 150);
        for (int i = 0; i < entries; i++) {
            SyntheticEvidenceLog.Generated generated = log.next();
            var fields = generated.entry().fields();
            audit.append(String.join("\t", fields.get(EntryFields.ID), workspace.toString(), fields.get(EntryFields.EVENT_ID),
                    fields.get(EntryFields.COMMAND_ID), fields.get(EntryFields.CORRELATION_ID), fields.get(EntryFields.OCCURRED_AT),
                    "action_evaluated", fields.get(EntryFields.TOOL), fields.get(EntryFields.ACTION),
                    fields.get(EntryFields.RISK_LEVEL), fields.get(EntryFields.SUPPLIED_RISK_LEVEL),
                    fields.get(EntryFields.RISK_CLASSIFICATION), "f", fields.get(EntryFields.DECISION), fields.get(EntryFields.REASON),
                    fields.get(EntryFields.MATCHED_POLICY_ID), fields.get(EntryFields.MATCHED_POLICY_NAME),
                    fields.get(EntryFields.AGENT_ID), fields.get(EntryFields.AGENT_NAME), fields.get(EntryFields.REQUESTED_BY),
                    fields.get(EntryFields.SOURCE), copyText(generated.excerpt()), "f", fields.get(EntryFields.PAYLOAD_BYTES),
                    fields.get(EntryFields.POLICY_SET_VERSION), fields.get(EntryFields.WORKSPACE_VERSION), "f", Integer.toString(i),
                    Hashes.base64(generated.leaf()), fields.get(EntryFields.PAYLOAD_SHA256),
                    fields.get(EntryFields.PAYLOAD_EXCERPT_SHA256))).append('\n');
            List<NodeId> ids = NodeId.completedBy(i);
            for (int n = 0; n < ids.size(); n++) {
                if (ids.get(n).level() < EvidenceLogReader.MIN_STORED_LEVEL) {
                    continue; // as the projector: the lowest levels are hashed from the leaves when a proof needs them
                }
                nodes.append(workspace).append('\t').append(ids.get(n).level()).append('\t').append(ids.get(n).index()).append('\t')
                        .append(Hashes.base64(generated.completed().get(n))).append('\n');
            }
            if ((i + 1) % batch == 0 || i + 1 == entries) {
                copy.copyIn("copy audit_log (id, workspace_id, event_id, command_id, correlation_id, occurred_at, kind, tool,"
                        + " action, risk_level, supplied_risk_level, risk_classification, risk_overridden_by_caller, decision,"
                        + " reason, matched_policy_id, matched_policy_name, agent_id, agent_name, requested_by, source,"
                        + " payload_excerpt, payload_truncated, payload_bytes, policy_set_version, workspace_version, undelivered,"
                        + " sequence, leaf_hash, payload_sha256, payload_excerpt_sha256) from stdin", new StringReader(audit.toString()));
                copy.copyIn("copy evidence_nodes (workspace_id, level, node_index, hash) from stdin", new StringReader(nodes.toString()));
                audit.setLength(0);
                nodes.setLength(0);
            }
        }
        String note = log.checkpoint();
        Checkpoint checkpoint = Checkpoint.parse(SignedNote.parse(note).text());
        try (var insert = db.prepareStatement("insert into evidence_checkpoints (event_id, workspace_id, tree_size, root_hash,"
                + " note, signed_by, issued_at) values (?::uuid, ?, ?, ?, ?, ?, now())")) {
            insert.setString(1, UUID.randomUUID().toString());
            insert.setObject(2, workspace);
            insert.setLong(3, checkpoint.size());
            insert.setString(4, Hashes.base64(checkpoint.rootHash()));
            insert.setString(5, note);
            insert.setString(6, key.verifier().text());
            insert.executeUpdate();
        }
        try (Statement analyze = db.createStatement()) {
            analyze.execute("analyze audit_log");
            analyze.execute("analyze evidence_nodes");
        }
        return note;
    }

    /** COPY text format: backslash, tab and line breaks escaped. */
    private static String copyText(String text) {
        return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }
}
