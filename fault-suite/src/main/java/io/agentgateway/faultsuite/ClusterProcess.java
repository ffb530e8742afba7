package io.agentgateway.faultsuite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One process of the local cluster: started with its command and environment, its output in a log file. */
final class ClusterProcess {
    final String name;
    private final List<String> command;
    private volatile Map<String, String> environment;
    private final Path log;
    private Process process;
    /** When the process was last started (epoch ms), for start-to-ready figures. */
    private volatile long startedAtMs;

    ClusterProcess(String name, List<String> command, Map<String, String> environment, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.log = log;
    }

    synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        try {
            startedAtMs = System.currentTimeMillis();
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** SIGKILL, as a crash: nothing is closed, no group is left. */
    synchronized void kill9() {
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            waitFor();
        }
    }

    /** SIGTERM, a clean stop (shutdown hooks run). */
    synchronized void stop() {
        if (signalStop()) {
            waitFor();
        }
    }

    /**
     * SIGTERM to all at once, then waits for each: the brokers of a KRaft quorum. Stopped one after another, the last
     * one's controlled shutdown waits for a controller quorum that has already gone, until its 60 s are up.
     */
    static void stopTogether(List<ClusterProcess> processes) {
        List<ClusterProcess> stopping = processes.stream().filter(ClusterProcess::signalStop).toList();
        stopping.forEach(ClusterProcess::awaitStopped);
    }

    private synchronized boolean signalStop() {
        if (process == null || !process.isAlive()) {
            return false;
        }
        process.destroy();
        return true;
    }

    private synchronized void awaitStopped() {
        waitFor();
    }

    private void waitFor() {
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The environment of the next start, with {@code changes} over what it had (a value of null removes a key): a
     * restart with new settings, as a configuration change or an upgrade would be.
     */
    void changeEnvironment(Map<String, String> changes) {
        Map<String, String> next = new java.util.LinkedHashMap<>(environment);
        changes.forEach((key, value) -> {
            if (value == null) {
                next.remove(key);
            } else {
                next.put(key, value);
            }
        });
        environment = Map.copyOf(next);
    }

    long startedAtMs() {
        return startedAtMs;
    }

    /** The live process's id, or -1. */
    synchronized long pid() {
        return process != null && process.isAlive() ? process.pid() : -1;
    }

    synchronized boolean alive() {
        return process != null && process.isAlive();
    }

    Path log() {
        return log;
    }
}
