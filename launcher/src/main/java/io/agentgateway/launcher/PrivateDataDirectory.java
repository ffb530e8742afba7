package io.agentgateway.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default's data directory is its user's alone: the broker's log (every command, with
 * sealed secrets and payload excerpts), the PostgreSQL cluster, the Streams state and the generated keys.
 * The directory is made {@code rwx------} and everything already in it owner-only (directories 0700, files
 * 0600) before anything is started; what the broker and PostgreSQL create later sits inside a directory
 * nobody else can enter. On a file system without POSIX permissions nothing is changed.
 */
final class PrivateDataDirectory {
    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Logger log = LoggerFactory.getLogger(PrivateDataDirectory.class);

    private PrivateDataDirectory() {}

    static void prepare(Path dataDir) {
        try {
            Files.createDirectories(dataDir);
            if (!Files.getFileStore(dataDir).supportsFileAttributeView("posix")) {
                return;
            }
            Files.walkFileTree(dataDir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
                    restrict(dir, DIRECTORY);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    if (attributes.isRegularFile()) {
                        restrict(file, FILE);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    // a file that vanished meanwhile (a temporary file of a previous run) is no concern
                    log.debug("could not restrict {}: {}", file, e.toString());
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the data directory " + dataDir + " private", e);
        }
    }

    /** Creates (or truncates) {@code file} owner-only before a byte is written to it. */
    static void createPrivateFile(Path file) throws IOException {
        if (Files.exists(file)) {
            restrict(file, FILE);
        } else if (Files.getFileStore(file.getParent()).supportsFileAttributeView("posix")) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE));
        }
    }

    private static void restrict(Path path, Set<PosixFilePermission> permissions) throws IOException {
        if (!Files.isSymbolicLink(path) && !Files.getPosixFilePermissions(path).equals(permissions)) {
            Files.setPosixFilePermissions(path, permissions);
        }
    }
}
