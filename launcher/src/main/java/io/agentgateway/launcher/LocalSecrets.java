package io.agentgateway.launcher;

import io.agentgateway.evidence.NoteKeys;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Properties;

/**
 * The embedded default's secrets: the HS256 key that signs user JWTs, the AES-256 key that seals
 * secrets in events and tables, the HS256 key that signs OAuth states, and the Ed25519 key that signs the audit log's
 * checkpoints (a C2SP note signer key, {@code PRIVATE+KEY+<name>+<id>+<base64>}). Generated on first start
 * into {@code secrets.properties} (owner-only permissions) so restarts keep working tokens and readable
 * sealed values (a key added by a later version is generated into an existing file); the environment
 * variables GATEWAY_AUTH_JWT_HS256SECRET, GATEWAY_SECRETS_KEY, GATEWAY_OAUTH_STATEKEY and GATEWAY_EVIDENCE_SIGNINGKEY
 * take precedence.
 */
public record LocalSecrets(String jwtSecret, String secretsKey, String oauthStateKey, String evidenceSigningKey) {
    /** The name of the checkpoint signing key generated here (and so the prefix of every workspace log's origin). */
    public static final String EVIDENCE_KEY_NAME = "agent-action-gateway.local/audit";

    static LocalSecrets loadOrCreate(Path dataDir) {
        Path file = dataDir.resolve("secrets.properties");
        Properties props = new Properties();
        try {
            if (Files.exists(file)) {
                try (Reader in = Files.newBufferedReader(file)) {
                    props.load(in);
                }
            }
            boolean generated = generateIfMissing(props, "jwt-hs256-secret", 48)
                    | generateIfMissing(props, "secrets-key", 32)
                    | generateIfMissing(props, "oauth-state-key", 32)
                    | generateSigningKeyIfMissing(props, "evidence-signing-key");
            if (generated) {
                Files.createDirectories(dataDir);
                // owner-only before the keys are written, not after
                PrivateDataDirectory.createPrivateFile(file);
                try (Writer out = Files.newBufferedWriter(file)) {
                    props.store(out, "generated on first start; keep private");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + file, e);
        }
        return new LocalSecrets(
                override("GATEWAY_AUTH_JWT_HS256SECRET", props.getProperty("jwt-hs256-secret")),
                override("GATEWAY_SECRETS_KEY", props.getProperty("secrets-key")),
                override("GATEWAY_OAUTH_STATEKEY", props.getProperty("oauth-state-key")),
                override("GATEWAY_EVIDENCE_SIGNINGKEY", props.getProperty("evidence-signing-key")));
    }

    /** The public half of the checkpoint signing key, as a C2SP verifier key (what auditors pin). */
    public String evidencePublicKey() {
        return NoteKeys.parseSigner(evidenceSigningKey).verifier().text();
    }

    private static boolean generateSigningKeyIfMissing(Properties props, String name) {
        if (props.getProperty(name) != null) {
            return false;
        }
        props.setProperty(name, NoteKeys.generate(EVIDENCE_KEY_NAME, new SecureRandom()).text());
        return true;
    }

    private static boolean generateIfMissing(Properties props, String name, int bytes) {
        if (props.getProperty(name) != null) {
            return false;
        }
        props.setProperty(name, randomBase64(bytes));
        return true;
    }

    private static String override(String name, String fallback) {
        String v = System.getProperty(name, System.getenv(name));
        return v == null || v.isBlank() ? fallback : v;
    }

    private static String randomBase64(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }

    @Override
    public String toString() {
        return "LocalSecrets[redacted]";
    }
}
