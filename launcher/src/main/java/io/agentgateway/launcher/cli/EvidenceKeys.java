package io.agentgateway.launcher.cli;

import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.LocalSecrets;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;

/**
 * The public keys of this gateway's checkpoints as the command line finds them: {@code --key} (comma-separated
 * verifier keys), else GATEWAY_EVIDENCE_PUBLICKEYS / {@code gateway.evidence.public-keys}, GATEWAY_EVIDENCE_SIGNINGKEY,
 * and the embedded default's generated key in {@code <data>/secrets.properties} (read, never created here).
 */
final class EvidenceKeys {
    private EvidenceKeys() {}

    /** Comma-separated verifier keys; {@link IllegalArgumentException} naming the option for one that cannot be read. */
    static List<NoteKeys.VerifierKey> parse(String commaSeparated, String option) {
        List<NoteKeys.VerifierKey> keys = new ArrayList<>();
        for (String text : commaSeparated.split(",")) {
            if (text.isBlank()) {
                continue;
            }
            try {
                keys.add(NoteKeys.parseVerifier(text.trim()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + ": " + e.getMessage());
            }
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException(option + " names no key");
        }
        return keys;
    }

    /** The keys this machine's gateway signs with (current first), from its settings and data directory. */
    static List<NoteKeys.VerifierKey> ofThisGateway(LauncherSettings settings) {
        List<NoteKeys.VerifierKey> keys = new ArrayList<>();
        String signing = setting("gateway.evidence.signing-key", "GATEWAY_EVIDENCE_SIGNINGKEY");
        if (signing == null) {
            signing = generatedKey(settings.dataDir());
        }
        if (signing != null) {
            try {
                keys.add(NoteKeys.parseSigner(signing.trim()).verifier());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the gateway's evidence signing key cannot be read: " + e.getMessage());
            }
        }
        for (String property : List.of("gateway.evidence.public-keys", "gateway.evidence.previous-public-keys")) {
            String configured = setting(property, property.replace("gateway.evidence.", "GATEWAY_EVIDENCE_")
                    .replace("-", "").toUpperCase(Locale.ROOT));
            if (configured != null && !configured.isBlank()) {
                parse(configured, property).stream().filter(key -> !keys.contains(key)).forEach(keys::add);
            }
        }
        return keys;
    }

    /** The origin of a workspace's log when no checkpoint says it (the first key's name, as the stream names it). */
    static String origin(List<NoteKeys.VerifierKey> keys, UUID workspaceId) {
        return (keys.isEmpty() ? LocalSecrets.EVIDENCE_KEY_NAME : keys.get(0).name()) + "/" + workspaceId;
    }

    private static String generatedKey(Path dataDir) {
        Path file = dataDir.resolve("secrets.properties");
        if (!Files.isReadable(file)) {
            return null;
        }
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            props.load(in);
        } catch (IOException e) {
            return null;
        }
        return props.getProperty("evidence-signing-key");
    }

    private static String setting(String property, String environmentVariable) {
        String value = System.getProperty(property, System.getenv(environmentVariable));
        return value == null || value.isBlank() ? null : value;
    }
}
