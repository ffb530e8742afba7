package io.agentgateway.launcher.support;

import io.agentgateway.schemas.GatewayJson;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The real client libraries agents use ({@code @octokit/rest}, {@code @linear/sdk}), driven from the
 * tests. The Node project lives in {@code src/test/node} (package.json and a committed
 * package-lock.json pin every version); the first use in a test JVM copies it to
 * {@code target/node-clients} and runs {@code npm ci} there, unless that folder already holds the
 * install of the very same lock file (a stamp of its SHA-256): a {@link NodeProject}. Without {@code node} and {@code npm} on
 * the PATH (node 20.19 or later) the tests fail with a message saying so: they are never skipped.
 *
 * <p>A scenario group is one script ({@code octokit.mjs}, {@code linear.mjs}, …): {@link #run} starts
 * one node process for it, hands it the configuration as JSON in {@code SCENARIO_CONFIG} and returns
 * the {@code cases} object it prints (see {@code lib/harness.mjs}). To add a group, add a script that
 * calls {@code runCases}; to add a library, add it to package.json and refresh the lock file with
 * {@code npm install --package-lock-only}.
 */
public final class RealClients {
    private static final NodeProject PROJECT = new NodeProject(Path.of("src", "test", "node"), Path.of("target", "node-clients"));
    private static final long RUN_TIMEOUT_SECONDS = 120;
    private static final int[] MINIMUM_NODE = {20, 19};
    private static boolean installed;

    private RealClients() {}

    /** Installs the pinned client libraries once per JVM (and not at all when target already has them). */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        requireNode();
        PROJECT.install();
        installed = true;
    }

    /**
     * Runs one scenario group.
     *
     * @param script the script under {@code src/test/node}, e.g. {@code octokit.mjs}
     * @param config what the script reads from {@code SCENARIO_CONFIG}
     * @return the {@code cases} object: case name → outcome
     */
    public static JsonNode run(String script, Map<String, Object> config) {
        install();
        long start = System.nanoTime();
        NodeProject.Result node = PROJECT.run(List.of("node", script),
                Map.of("SCENARIO_CONFIG", GatewayJson.MAPPER.writeValueAsString(config)), RUN_TIMEOUT_SECONDS);
        System.err.printf("RealClients: node %s took %d ms%n", script, (System.nanoTime() - start) / 1_000_000);
        if (node.exitCode() != 0) {
            throw new AssertionError("node " + script + " failed (exit " + node.exitCode() + "):\n"
                    + NodeProject.tail(node.stderr()) + NodeProject.tail(node.stdout()));
        }
        JsonNode printed;
        try {
            printed = GatewayJson.MAPPER.readTree(node.stdout());
        } catch (RuntimeException e) {
            throw new AssertionError("node " + script + " printed no JSON document:\n" + NodeProject.tail(node.stdout())
                    + NodeProject.tail(node.stderr()), e);
        }
        return printed.get("cases");
    }

    private static void requireNode() {
        NodeProject.Result version;
        try {
            version = PROJECT.run(List.of("node", "--version"), Map.of(), 30);
            PROJECT.run(List.of("npm", "--version"), Map.of(), 60);
        } catch (UncheckedIOException e) {
            throw new AssertionError("node and npm must be installed (node " + MINIMUM_NODE[0] + "." + MINIMUM_NODE[1]
                    + " or later): the real-client tests drive the gateway with @octokit/rest and @linear/sdk", e);
        }
        String[] parts = version.stdout().strip().replaceFirst("^v", "").split("\\.");
        int major = Integer.parseInt(parts[0]);
        int minor = Integer.parseInt(parts[1]);
        if (major < MINIMUM_NODE[0] || (major == MINIMUM_NODE[0] && minor < MINIMUM_NODE[1])) {
            throw new AssertionError("node " + MINIMUM_NODE[0] + "." + MINIMUM_NODE[1] + " or later is required, found "
                    + version.stdout().strip());
        }
    }
}
