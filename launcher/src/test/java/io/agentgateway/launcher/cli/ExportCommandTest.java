package io.agentgateway.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.embeddedinfra.EmbeddedPostgresServer;
import io.agentgateway.embeddedinfra.FreePorts;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.schemas.GatewayJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** {@code export} against a real PostgreSQL carrying the projector's schema, run in process. */
class ExportCommandTest {
    private static final Instant T0 = Instant.parse("2031-05-01T00:00:00Z");
    private static String url;
    private static String user;
    private static String password;
    private static UUID workspace;

    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();

    @BeforeAll
    static void database() throws Exception {
        EmbeddedPostgresServer postgres = SharedTestInfra.postgres();
        url = postgres.createDatabase("export_cli");
        user = postgres.username();
        password = postgres.password();
        Flyway.configure().dataSource(url, user, password).locations("classpath:db/migration/projector").load().migrate();
        workspace = UUID.randomUUID();
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            try (PreparedStatement s = c.prepareStatement("insert into workspaces (id, name, created_at, updated_at) values (?, 'cli', now(), now())")) {
                s.setObject(1, workspace);
                s.executeUpdate();
            }
            for (int i = 0; i < 3; i++) {
                try (PreparedStatement s = c.prepareStatement("""
                        insert into audit_log (id, workspace_id, event_id, command_id, correlation_id, occurred_at, kind,
                            tool, action, risk_level, decision, agent_id, payload_excerpt, policy_set_version, workspace_version)
                        values (gen_random_uuid(), ?, gen_random_uuid(), ?, gen_random_uuid()::text, ?, 'action_evaluated',
                            'chat', 'message.send', 'low', 'allow', 'agent, "one"', '{"a":"b, c"}', 7, 9)
                        """)) {
                    s.setObject(1, workspace);
                    s.setString(2, "command-" + i);
                    s.setObject(3, T0.plusSeconds(i).atOffset(ZoneOffset.UTC));
                    s.executeUpdate();
                }
            }
        }
    }

    private int run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        return new ExportCommand(stdout, new PrintStream(stderr, true, StandardCharsets.UTF_8)).execute(all);
    }

    private String[] withDatabase(String... args) {
        return Stream.concat(Stream.of(args), Stream.of("--jdbc-url", url, "--db-user", user, "--db-password", password))
                .toArray(String[]::new);
    }

    private List<String> errorLines() {
        return stderr.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void writesJsonLinesToStandardOutput() {
        int status = run(withDatabase("--workspace", workspace.toString(), "--from", T0.toString(), "--to", T0.plusSeconds(2).toString()));

        assertThat(status).as(stderr.toString()).isZero();
        List<JsonNode> lines = stdout.toString(StandardCharsets.UTF_8).lines().map(GatewayJson.MAPPER::readTree).toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).get("occurredAt").asString()).isEqualTo("2031-05-01T00:00:00Z");
        assertThat(lines.get(0).get("policySetVersion").longValue()).isEqualTo(7);
        assertThat(lines.get(0).get("agentId").asString()).isEqualTo("agent, \"one\"");
        assertThat(errorLines()).containsExactly("export: 2 audit rows written");
    }

    @Test
    void writesCsvToAFileAndLeavesNoPartialFileBehind(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("audit.csv");

        int status = run(withDatabase("--workspace=" + workspace, "--from=" + T0, "--to=" + T0.plusSeconds(60), "--format=csv", "--out=" + out));

        assertThat(status).as(stderr.toString()).isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("id,occurredAt,kind,");
        assertThat(lines.get(1)).contains(",\"agent, \"\"one\"\"\",").contains(",\"{\"\"a\"\":\"\"b, c\"\"}\",");
        assertThat(stdout.size()).isZero();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(out);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            --from 2031-01-01T00:00:00Z --to 2031-02-01T00:00:00Z                                   | export: --workspace is required (see export --help)
            --workspace abc --from 2031-01-01T00:00:00Z --to 2031-02-01T00:00:00Z                   | export: --workspace must be a uuid (see export --help)
            --workspace WS --to 2031-02-01T00:00:00Z                                                | export: --from is required (see export --help)
            --workspace WS --from yesterday --to 2031-02-01T00:00:00Z                               | export: --from must be an ISO-8601 timestamp such as 2030-01-01T00:00:00Z (see export --help)
            --workspace WS --from 2031-02-01T00:00:00Z --to 2031-01-01T00:00:00Z                    | export: --from must be before --to (see export --help)
            --workspace WS --from 2031-01-01T00:00:00Z --to 2031-02-01T00:00:00Z --format xml       | export: --format must be one of: jsonl, csv (see export --help)
            --workspace WS --from 2031-01-01T00:00:00Z --to 2031-02-01T00:00:00Z --limit 5          | export: unknown option --limit (see export --help)
            --workspace WS --from 2031-01-01T00:00:00Z --to                                         | export: --to needs a value (see export --help)
            --workspace WS WS --from 2031-01-01T00:00:00Z --to 2031-02-01T00:00:00Z                 | export: unexpected argument 'WS' (see export --help)
            """)
    void badArgumentsAreOneLineAndStatus2(String args, String error) {
        int status = run(args.replace("WS", workspace.toString()).split(" "));

        assertThat(status).isEqualTo(2);
        assertThat(errorLines()).containsExactly(error.replace("WS", workspace.toString()));
        assertThat(stdout.size()).isZero();
    }

    @Test
    void anUnreachableDatabaseIsOneLineAndStatus1() {
        String nowhere = "jdbc:postgresql://127.0.0.1:" + FreePorts.pick() + "/gateway";

        int status = run("--workspace", workspace.toString(), "--from", T0.toString(), "--to", T0.plusSeconds(1).toString(),
                "--jdbc-url", nowhere);

        assertThat(status).isEqualTo(1);
        assertThat(errorLines()).hasSize(1);
        assertThat(errorLines().get(0)).startsWith("export: PostgreSQL at " + nowhere + ": ").doesNotContain("Exception");
    }

    @Test
    void anUnknownWorkspaceIsAnErrorNotAnEmptyFile(@TempDir Path dir) throws Exception {
        UUID unknown = UUID.randomUUID();
        Path out = dir.resolve("audit.jsonl");

        int status = run(withDatabase("--workspace", unknown.toString(), "--from", T0.toString(), "--to", T0.plusSeconds(1).toString(),
                "--out", out.toString()));

        assertThat(status).isEqualTo(1);
        assertThat(errorLines()).containsExactly("export: workspace " + unknown + " does not exist in " + url);
        assertThat(out).doesNotExist();
    }

    @Test
    void anUnwritableOutputIsOneLineAndStatus1(@TempDir Path dir) {
        Path out = dir.resolve("missing-directory").resolve("audit.jsonl");

        int status = run(withDatabase("--workspace", workspace.toString(), "--from", T0.toString(), "--to", T0.plusSeconds(1).toString(),
                "--out", out.toString()));

        assertThat(status).isEqualTo(1);
        assertThat(errorLines()).hasSize(1);
        assertThat(errorLines().get(0)).startsWith("export: cannot write " + out);
    }

    @Test
    void helpPrintsTheUsage() {
        assertThat(run("--help")).isZero();
        assertThat(stdout.toString(StandardCharsets.UTF_8)).startsWith("usage: java -jar launcher-0.1.0-SNAPSHOT-exec.jar export");
    }
}
