package io.agentgateway.launcher;

import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The real client libraries agents use ({@code @octokit/rest}, {@code @linear/sdk}), driven from the
 * tests. The Node project lives in {@code src/test/node} (package.json and a committed
 * package-lock.json pin every version); the first use in a test JVM copies it to
 * {@code target/node-clients} and runs {@code npm ci} there, unless that folder already holds the
 * install of the very same lock file (a stamp of its SHA-256). Without {@code node} and {@code npm} on
 * the PATH (node 20.19 or later) the tests fail with a message saying so: they are never skipped.
 *
 * <p>A scenario group is one script ({@code octokit.mjs}, {@code linear.mjs}, …): {@link #run} starts
 * one node process for it, hands it the configuration as JSON in {@code SCENARIO_CONFIG} and returns
 * the {@code cases} object it prints (see {@code lib/harness.mjs}). To add a group, add a script that
 * calls {@code runCases}; to add a library, add it to package.json and refresh the lock file with
 * {@code npm install --package-lock-only}.
 */
final class RealClients {
    private static final Path SOURCE = Path.of("src", "test", "node");
    private static final Path INSTALL = Path.of("target", "node-clients");
    private static final Path STAMP = INSTALL.resolve("node_modules").resolve(".installed-lock-sha256");
    private static final long INSTALL_TIMEOUT_SECONDS = 600;
    private static final long RUN_TIMEOUT_SECONDS = 120;
    private static final int[] MINIMUM_NODE = {20, 19};
    private static boolean installed;

    private RealClients() {}

    /** Installs the pinned client libraries once per JVM (and not at all when target already has them). */
    static synchronized void install() {
        if (installed) {
            return;
        }
        try {
            Files.createDirectories(INSTALL);
            requireNode();
            String lockHash = sha256(Files.readAllBytes(SOURCE.resolve("package-lock.json")));
            copySources();
            if (!Files.exists(STAMP) || !Files.readString(STAMP).equals(lockHash)) {
                long start = System.nanoTime();
                Result npm = exec(List.of("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"),
                        Map.of(), INSTALL_TIMEOUT_SECONDS);
                if (npm.exitCode() != 0) {
                    throw new AssertionError("npm ci failed in " + INSTALL.toAbsolutePath() + " (exit " + npm.exitCode()
                            + "); the npm registry must be reachable:\n" + tail(npm.stderr()) + tail(npm.stdout()));
                }
                Files.writeString(STAMP, lockHash);
                System.err.printf("RealClients: npm ci took %d ms%n", (System.nanoTime() - start) / 1_000_000);
            }
            installed = true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs one scenario group.
     *
     * @param script the script under {@code src/test/node}, e.g. {@code octokit.mjs}
     * @param config what the script reads from {@code SCENARIO_CONFIG}
     * @return the {@code cases} object: case name → outcome
     */
    static JsonNode run(String script, Map<String, Object> config) {
        install();
        long start = System.nanoTime();
        Result node = exec(List.of("node", script), Map.of("SCENARIO_CONFIG", GatewayJson.MAPPER.writeValueAsString(config)),
                RUN_TIMEOUT_SECONDS);
        System.err.printf("RealClients: node %s took %d ms%n", script, (System.nanoTime() - start) / 1_000_000);
        if (node.exitCode() != 0) {
            throw new AssertionError("node " + script + " failed (exit " + node.exitCode() + "):\n" + tail(node.stderr()) + tail(node.stdout()));
        }
        JsonNode printed;
        try {
            printed = GatewayJson.MAPPER.readTree(node.stdout());
        } catch (RuntimeException e) {
            throw new AssertionError("node " + script + " printed no JSON document:\n" + tail(node.stdout()) + tail(node.stderr()), e);
        }
        return printed.get("cases");
    }

    private static void requireNode() {
        Result version;
        try {
            version = exec(List.of("node", "--version"), Map.of(), 30);
            exec(List.of("npm", "--version"), Map.of(), 60);
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

    /** The scripts and the package files, fresh every time (cheap); node_modules stays. */
    private static void copySources() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCE)) {
            for (Path file : files.filter(Files::isRegularFile).filter(f -> !f.toString().contains("node_modules")).toList()) {
                Path target = INSTALL.resolve(SOURCE.relativize(file));
                Files.createDirectories(target.getParent());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private record Result(int exitCode, String stdout, String stderr) {}

    private static Result exec(List<String> command, Map<String, String> environment, long timeoutSeconds) {
        try {
            Path out = Files.createTempFile(INSTALL.toAbsolutePath().getParent(), "node-out", ".txt");
            Path err = Files.createTempFile(INSTALL.toAbsolutePath().getParent(), "node-err", ".txt");
            try {
                ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(INSTALL.toFile())
                        .redirectOutput(out.toFile()).redirectError(err.toFile());
                builder.environment().putAll(environment);
                Process process = builder.start();
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
                }
                return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String tail(String text) {
        return text.length() <= 4_000 ? text : "…" + text.substring(text.length() - 4_000);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
