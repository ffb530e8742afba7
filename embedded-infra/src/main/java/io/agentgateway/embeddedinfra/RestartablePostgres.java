package io.agentgateway.embeddedinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A PostgreSQL that a test stops and starts again on the same port and data, as an outage does to a running
 * gateway (connections refused, then the same server back). Its data directory is removed on close.
 */
public final class RestartablePostgres implements AutoCloseable {
    private final Path dataDir;
    private final int port;
    private EmbeddedPostgresServer server;

    private RestartablePostgres(Path dataDir, int port) {
        this.dataDir = dataDir;
        this.port = port;
        this.server = EmbeddedPostgresServer.start(dataDir, port);
    }

    public static RestartablePostgres start() {
        try {
            return new RestartablePostgres(Files.createTempDirectory("gateway-outage-pg-"), FreePorts.pick());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The running server (for {@link EmbeddedPostgresServer#createDatabase}); its JDBC URLs stay valid across a restart. */
    public EmbeddedPostgresServer server() {
        return server;
    }

    /** The outage: the server stops (a fast shutdown, sessions terminated). */
    public void stop() {
        server.close();
    }

    /** The server back, on the same port with the same data. */
    public void restart() {
        server = EmbeddedPostgresServer.start(dataDir, port);
    }

    @Override
    public void close() {
        server.close();
        Directories.deleteRecursively(dataDir);
    }
}
