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
    private final Map<String, String> environment;
    private final Path log;
    private Process process;

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

    synchronized boolean alive() {
        return process != null && process.isAlive();
    }

    Path log() {
        return log;
    }
}
