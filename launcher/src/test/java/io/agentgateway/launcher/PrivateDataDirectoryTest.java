package io.agentgateway.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 14: the embedded default's data directory was 0755 and its files 0644 (the broker's log, the keys). */
class PrivateDataDirectoryTest {

    @Test
    void anExistingWorldReadableTreeBecomesOwnerOnlyAndNewKeysAreNeverReadableByOthers(@TempDir Path temp) throws Exception {
        Path data = temp.resolve("data");
        Path kafka = Files.createDirectories(data.resolve("kafka/gateway.commands.v1-0"));
        Path segment = Files.writeString(kafka.resolve("00000000000000000000.log"), "commands");
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(kafka, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(segment, PosixFilePermissions.fromString("rw-r--r--"));

        PrivateDataDirectory.prepare(data);
        LocalSecrets.loadOrCreate(data);

        assertThat(permissions(data)).isEqualTo("rwx------");
        assertThat(permissions(kafka)).isEqualTo("rwx------");
        assertThat(permissions(segment)).isEqualTo("rw-------");
        assertThat(permissions(data.resolve("secrets.properties"))).isEqualTo("rw-------");
    }

    @Test
    void aDataDirectoryThatDoesNotExistYetIsCreatedOwnerOnly(@TempDir Path temp) throws Exception {
        Path data = temp.resolve("fresh/data");

        PrivateDataDirectory.prepare(data);

        assertThat(permissions(data)).isEqualTo("rwx------");
    }

    private static String permissions(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
