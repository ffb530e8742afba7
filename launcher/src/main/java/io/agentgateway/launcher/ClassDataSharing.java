package io.agentgateway.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A gateway service's executable jar made to start faster with application class data sharing (AppCDS, JDK 13+):
 * the jar extracted once (Spring Boot's {@code -Djarmode=tools extract}: the application's jar beside its libraries,
 * so that the JVM's own class loader reads them; classes from Boot's nested jars cannot be archived), one training
 * start that stops as soon as its application context is refreshed ({@code -Dspring.context.exit=onRefresh}, before
 * anything connects to a broker) and writes the classes it loaded to an archive ({@code -XX:ArchiveClassesAtExit}),
 * then every start maps that archive ({@code -XX:SharedArchiveFile}) instead of finding, reading, parsing and
 * verifying those classes again. docs/operating-a-cluster.md, "Starting fast", says how an operator does the same.
 *
 * <p>The archive belongs to the JVM that wrote it and to the extracted files: start with the same {@code java}, the same
 * garbage collector and the same directory. A JVM that finds it unusable starts without it (and says so with
 * {@code -Xlog:cds}), slower but correct.
 */
public final class ClassDataSharing {
    /** The archive's name in the extracted directory. */
    public static final String ARCHIVE = "app.jsa";

    private final Path directory;
    private final Path jar;

    private ClassDataSharing(Path directory, Path jar) {
        this.directory = directory;
        this.jar = jar;
    }

    /** Extracts {@code executableJar} into {@code directory} (reused when already extracted there). */
    public static ClassDataSharing extract(String java, Path executableJar, Path directory) {
        Path extractedJar = directory.resolve(executableJar.getFileName());
        if (!Files.isRegularFile(extractedJar)) {
            run(List.of(java, "-Djarmode=tools", "-jar", executableJar.toString(), "extract", "--destination",
                    directory.toString()), Map.of(), directory.resolveSibling(directory.getFileName() + "-extract.log"));
        }
        if (!Files.isRegularFile(extractedJar)) {
            throw new IllegalStateException("extracting " + executableJar + " left no " + extractedJar);
        }
        return new ClassDataSharing(directory, extractedJar);
    }

    /** The extracted application jar (its libraries in {@code lib/} beside it). */
    public Path jar() {
        return jar;
    }

    public Path archive() {
        return directory.resolve(ARCHIVE);
    }

    public boolean trained() {
        return Files.isRegularFile(archive());
    }

    /**
     * The training start: {@code jvmOptions} as the service's real starts have them (the archive is only used with the
     * same collector), its environment (a service that migrates a schema while its context starts needs its database),
     * stopped by Spring once the context is refreshed. Returns how long it took, in ms.
     */
    public long train(String java, List<String> jvmOptions, Map<String, String> environment) {
        long start = System.currentTimeMillis();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.addAll(List.of("-XX:ArchiveClassesAtExit=" + archive(), "-Dspring.context.exit=onRefresh", "-jar",
                jar.toString()));
        run(command, environment, directory.resolve("training.log"));
        if (!trained()) {
            throw new IllegalStateException("the training start of " + jar + " wrote no archive (see "
                    + directory.resolve("training.log") + ")");
        }
        return System.currentTimeMillis() - start;
    }

    /**
     * The training start of an application that must not be cut off at its first context (the embedded default starts
     * a broker and PostgreSQL before its contexts, which a halt would leave behind): a whole start, until {@code ready}
     * holds, then a clean stop (SIGTERM), at whose exit the JVM writes the archive. Returns how long it took, in ms.
     */
    public long trainUntilReady(String java, List<String> jvmOptions, List<String> arguments, Map<String, String> environment,
                                java.util.function.BooleanSupplier ready, java.time.Duration timeout) {
        long start = System.currentTimeMillis();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.addAll(List.of("-XX:ArchiveClassesAtExit=" + archive(), "-jar", jar.toString()));
        command.addAll(arguments);
        Path log = directory.resolve("training.log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            Process process = builder.start();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!ready.getAsBoolean()) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    process.destroyForcibly();
                    throw new IllegalStateException("the training start of " + jar + " was not ready (see " + log + ")");
                }
                Thread.sleep(250);
            }
            process.destroy();
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + java, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted training " + jar, e);
        }
        if (!trained()) {
            throw new IllegalStateException("the training start of " + jar + " wrote no archive (see " + log + ")");
        }
        return System.currentTimeMillis() - start;
    }

    /** The options that make a start use the archive: put them before {@code -jar} and start {@link #jar()}. */
    public List<String> startOptions() {
        return List.of("-XX:SharedArchiveFile=" + archive());
    }

    /** The whole command of a start with the archive: {@code java}, {@code jvmOptions}, the archive, the extracted jar. */
    public List<String> command(String java, List<String> jvmOptions, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.addAll(startOptions());
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(arguments);
        return command;
    }

    private static void run(List<String> command, Map<String, String> environment, Path log) {
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            Process process = builder.start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("not done within 5 minutes: " + String.join(" ", command));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
        }
    }
}
