package io.agentgateway.benchmark.gateway;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The processes the embedded default consists of besides this JVM: PostgreSQL's postmaster and its
 * backends. pg_ctl starts the postmaster detached, so it is not a child of this JVM; its pid is read
 * from {@code postmaster.pid} in the cluster's data directory.
 */
public final class GatewayProcesses {
    private final Path postgresDataDir;

    public GatewayProcesses(Path postgresDataDir) {
        this.postgresDataDir = postgresDataDir;
    }

    /** PostgreSQL's processes, the postmaster first; empty if it is not running (or not on Linux). */
    public Stream<ProcessHandle> postgres() {
        return postmaster().map(p -> Stream.concat(Stream.of(p), p.descendants())).orElseGet(Stream::empty);
    }

    private Optional<ProcessHandle> postmaster() {
        try {
            String firstLine = Files.readAllLines(postgresDataDir.resolve("postmaster.pid")).get(0).trim();
            return ProcessHandle.of(Long.parseLong(firstLine));
        } catch (IOException | RuntimeException notThere) {
            return Optional.empty();
        }
    }
}
