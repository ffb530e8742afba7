package io.agentgateway.embeddedinfra;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure an embedded PostgreSQL never runs beside an orphan of itself. A process that dies
 * without closing (kill -9, a crash, a power cut of the JVM only) leaves its PostgreSQL running; the
 * next start used to meet {@code FATAL: lock file "postmaster.pid" already exists} and then carry on
 * with the orphan, which nobody owned any more.
 *
 * <p>Ownership is a file lock ({@code <data dir>.lock}) held for the life of the server: the
 * operating system releases it when its process dies, however it dies. So on start:
 * <ul>
 *   <li>the lock is held by a live process: another gateway uses this directory, refuse;</li>
 *   <li>the lock is ours and {@code postmaster.pid} names a live PostgreSQL: an orphan of a crashed
 *       owner; stop it with a fast shutdown (SIGINT: clients cut, transactions rolled back, a clean
 *       checkpoint), wait for it to exit, then start as usual; refuse if it does not exit;</li>
 *   <li>the port is taken by something else: refuse, naming the port.</li>
 * </ul>
 */
final class DataDirectoryGuard implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DataDirectoryGuard.class);
    static final Duration ORPHAN_STOP_TIMEOUT = Duration.ofSeconds(60);

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryGuard(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the directory over (stopping an orphan) or throws {@link IllegalStateException} saying why not. */
    static DataDirectoryGuard acquire(Path dataDir, int port) {
        Path lockFile = dataDir.resolveSibling(dataDir.getFileName() + ".lock");
        FileChannel channel = null;
        try {
            Files.createDirectories(dataDir);
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException inThisJvm) {
                lock = null;
            }
            if (lock == null) {
                throw new IllegalStateException("the PostgreSQL data directory " + dataDir
                        + " is in use by another running gateway (it holds " + lockFile + "); stop that one first");
            }
            DataDirectoryGuard guard = new DataDirectoryGuard(channel, lock);
            try {
                stopOrphan(dataDir);
                if (port != 0 && inUse(port)) {
                    throw new IllegalStateException("port " + port + " (GATEWAY_POSTGRES_PORT) is in use by another process;"
                            + " stop it or choose another port");
                }
            } catch (RuntimeException e) {
                guard.close();
                throw e;
            }
            return guard;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new IllegalStateException("cannot lock the PostgreSQL data directory " + dataDir + ": " + e.getMessage(), e);
        }
    }

    /** The PID in {@code postmaster.pid} when it names a live PostgreSQL process. */
    static Optional<ProcessHandle> runningPostmaster(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        try {
            List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
            if (lines.isEmpty()) {
                return Optional.empty();
            }
            long pid = Long.parseLong(lines.get(0).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(p -> p.info().command().map(c -> c.contains("postgres")).orElse(true));
        } catch (IOException | NumberFormatException e) {
            // unreadable: PostgreSQL itself decides whether the file is stale
            return Optional.empty();
        }
    }

    private static void stopOrphan(Path dataDir) {
        Optional<ProcessHandle> orphan = runningPostmaster(dataDir);
        if (orphan.isEmpty()) {
            return;
        }
        long pid = orphan.get().pid();
        log.warn("PostgreSQL (pid {}) is still running on {}, left by a gateway that did not stop; shutting it down",
                pid, dataDir);
        try {
            // SIGINT is PostgreSQL's fast shutdown; SIGTERM (ProcessHandle.destroy) would wait for every client
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(pid)).redirectErrorStream(true).start();
            kill.waitFor();
            orphan.get().onExit().get(ORPHAN_STOP_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the orphaned PostgreSQL (pid " + pid + ")", e);
        } catch (Exception e) {
            throw new IllegalStateException("an orphaned PostgreSQL (pid " + pid + ") runs on " + dataDir
                    + " and did not stop within " + ORPHAN_STOP_TIMEOUT.toSeconds() + " s; stop it (kill -INT " + pid
                    + ") and start again", e);
        }
        log.info("orphaned PostgreSQL (pid {}) stopped", pid);
    }

    private static boolean inUse(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            log.debug("lock release: {}", e.toString());
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing left to release
            }
        }
    }
}
