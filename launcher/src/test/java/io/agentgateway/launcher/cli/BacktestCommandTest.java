package io.agentgateway.launcher.cli;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.embeddedinfra.FreePorts;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.schemas.GatewayJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** {@code backtest} from the command line, against the running gateway's broker. */
class BacktestCommandTest {
    private static TestWorkspace ws;
    private static Instant from;

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    @BeforeAll
    static void history() {
        from = Instant.now().minusSeconds(1);
        ws = GatewayHarness.newWorkspace();
        var created = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), Map.of(
                "name", "docs off", "priority", 5, "decision", "block", "match", Map.of("tools", List.of("docs"))));
        assertThat(created.status()).isEqualTo(201);
        assertThat(evaluate(ws, Map.of("tool", "docs", "action", "page.read", "riskLevel", "low", "agentId", "a1")).text("decision"))
                .isEqualTo("block");
        assertThat(evaluate(ws, Map.of("tool", "chat", "action", "message.send", "riskLevel", "low", "agentId", "a1")).text("decision"))
                .isEqualTo("allow");
        assertThat(evaluate(ws, Map.of("tool", "docs", "action", "page.update", "riskLevel", "medium", "agentId", "a2")).text("decision"))
                .isEqualTo("block");
    }

    @Test
    void printsTheTableForACandidateFile() throws Exception {
        Path policies = write("[]");

        Run run = awaitAllThree("--workspace", ws.id(), "--policies", policies.toString(), "--from", from.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("Back-test of workspace " + ws.id())
                .contains("Evaluated 3   would change 2   unchanged 1   reproduction mismatches 0")
                .contains("block  allow      2")
                .contains("page.update");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void printsJsonForTheApiBodyShapeToo() throws Exception {
        Path policies = write("{\"policies\":[{\"name\":\"docs off\",\"priority\":5,\"decision\":\"block\",\"match\":{\"tools\":[\"docs\"]}}]}");

        Run run = awaitAllThree("--workspace", ws.id(), "--policies", policies.toString(), "--from", from.toString(),
                "--to", Instant.now().plusSeconds(5).toString(), "--format", "json",
                "--bootstrap-servers", GatewayHarness.gateway().bootstrapServers());

        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode report = GatewayJson.MAPPER.readTree(run.out());
        assertThat(report.get("totals").toString()).isEqualTo("{\"evaluated\":3,\"changed\":0,\"unchanged\":3,\"mismatches\":0}");
        assertThat(report.get("workspaceId").asString()).isEqualTo(ws.id());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--policies {file} --from 2026-01-01T00:00:00Z| backtest: --workspace is required (see --help)",
            "--workspace nope --policies {file} --from 2026-01-01T00:00:00Z| backtest: --workspace must be a workspace id (a uuid) (see --help)",
            "--workspace {ws} --policies {file} --from yesterday| backtest: --from must be an ISO-8601 timestamp such as 2026-03-01T00:00:00Z (see --help)",
            "--workspace {ws} --policies {file} --from 2026-01-01T00:00:00Z --to 2025-01-01T00:00:00Z| backtest: from must be before to (see --help)",
            "--workspace {ws} --policies {file} --from 2026-01-01T00:00:00Z --format xml| backtest: --format must be table or json (see --help)",
            "--workspace {ws} --policies {file} --from 2026-01-01T00:00:00Z --colour| backtest: unknown option --colour (see --help)",
            "--workspace {ws} --policies {file} --from 2026-01-01T00:00:00Z --to| backtest: --to needs a value (see --help)",
            "--workspace {ws} --policies {file} --from 2026-01-01T00:00:00Z --from 2026-02-01T00:00:00Z| backtest: --from is given twice (see --help)",
            "--workspace {ws} --policies {file} --from 2026-01-01T00:00:00Z --colour red| backtest: unknown option --colour (see --help)",
            "--workspace {ws} --policies /no/such/file.json --from 2026-01-01T00:00:00Z| backtest: cannot read --policies /no/such/file.json: no such file (see --help)",
            "--workspace {ws} --policies {file} --from 2026-01-01T00:00:00Z stray| backtest: unexpected argument 'stray' (see --help)",
    })
    void badArgumentsAreOneLineAndExitCode2(String args, String error) throws Exception {
        Path file = write("[]");
        Run run = run(args.replace("{file}", file.toString()).replace("{ws}", ws.id()).split(" "));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(error.strip() + System.lineSeparator());
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aBadPolicyInTheFileIsNamedWithThePolicyApisText() throws Exception {
        Path file = write("[{\"name\":\"x\",\"priority\":1,\"decision\":\"deny\"}]");

        Run run = run("--workspace", ws.id(), "--policies", file.toString(), "--from", from.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("backtest: " + file + ": policies[0]: decision must be one of: allow, block, require_approval"
                + " (see --help)" + System.lineSeparator());
        Path notJson = write("[{");
        Run broken = run("--workspace", ws.id(), "--policies", notJson.toString(), "--from", from.toString());
        assertThat(broken.exit()).isEqualTo(2);
        assertThat(broken.err()).startsWith("backtest: " + notJson + " is not valid JSON").doesNotContain("\n\tat ");
    }

    @Test
    void anUnreachableBrokerIsOneLineAndExitCode1() throws Exception {
        Run run = run("--workspace", ws.id(), "--policies", write("[]").toString(), "--from", from.toString(),
                "--bootstrap-servers", "127.0.0.1:" + FreePorts.pick(), "--timeout", "PT2S");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("backtest: Kafka at 127.0.0.1:").contains("did not answer within PT2S")
                .doesNotContain("\tat ");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void helpIsPrinted() {
        Run run = run("--help");
        assertThat(run.exit()).isZero();
        assertThat(run.out()).startsWith("usage: backtest --workspace");
    }

    /** The default bootstrap is the embedded default's port; tests point at the harness's broker. */
    private Run awaitAllThree(String... args) {
        List<String> withBroker = new ArrayList<>(List.of(args));
        if (!withBroker.contains("--bootstrap-servers")) {
            withBroker.addAll(List.of("--bootstrap-servers", GatewayHarness.gateway().bootstrapServers()));
        }
        Run[] last = new Run[1];
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
            last[0] = run(withBroker.toArray(String[]::new));
            assertThat(last[0].out()).containsAnyOf("Evaluated 3 ", "\"evaluated\" : 3");
        });
        return last[0];
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = BacktestCommand.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path write(String json) throws Exception {
        Path file = dir.resolve("policies-" + UUID.randomUUID() + ".json");
        Files.writeString(file, json);
        return file;
    }
}
