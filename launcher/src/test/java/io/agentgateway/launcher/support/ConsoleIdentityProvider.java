package io.agentgateway.launcher.support;

import io.agentgateway.embeddedinfra.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;

/**
 * The organization's OpenID provider of the tests: the npm package {@code oidc-provider} (OpenID Certified), run with
 * node from {@code src/test/node-console/provider.mjs}, with one confidential client, the console. Its port and client
 * are fixed when the harness's gateway starts (the gateway only reads the provider when somebody signs in), the
 * process itself starts on first use. Accounts: any login name signs in as that subject, email {@code <name>@example.test}.
 */
public final class ConsoleIdentityProvider {
    public static final String CLIENT_ID = "agent-gateway-console";
    public static final String CLIENT_SECRET = "console-secret-" + UUID.randomUUID();
    /** The resource whose access tokens (JWTs) the admin API accepts beside ID tokens. */
    public static final String ADMIN_API_RESOURCE = "urn:agent-gateway:admin-api";
    static final NodeProject PROJECT = new NodeProject(Path.of("src", "test", "node-console"), Path.of("target", "node-console"));
    private static final int PORT = FreePorts.pick();
    private static Process process;

    private ConsoleIdentityProvider() {}

    public static String issuer() {
        return "http://127.0.0.1:" + PORT;
    }

    /** The gateway's settings for this provider. */
    static Map<String, String> gatewayProperties() {
        return Map.of("gateway.auth.oidc.issuer", issuer(),
                "gateway.auth.oidc.client-id", CLIENT_ID,
                "gateway.auth.oidc.client-secret", CLIENT_SECRET,
                "gateway.auth.oidc.audiences", CLIENT_ID + "," + ADMIN_API_RESOURCE);
    }

    /** Starts the provider once (for the gateway at {@code gatewayBaseUrl}); stopped when the JVM ends. */
    public static synchronized void ensureStarted(String gatewayBaseUrl) {
        if (process != null && process.isAlive()) {
            return;
        }
        PROJECT.install();
        try {
            Path log = Files.createTempFile("oidc-provider-", ".log");
            process = PROJECT.start(List.of("node", "provider.mjs", Integer.toString(PORT), CLIENT_ID, CLIENT_SECRET,
                    gatewayBaseUrl + "/signin/callback"), Map.of(), log);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> process.destroy(), "stop-oidc-provider"));
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> !process.isAlive() || Files.readString(log).contains("ready "));
            if (!process.isAlive()) {
                throw new AssertionError("the OpenID provider did not start: " + Files.readString(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** axe-core's engine, as the npm package ships it (injected into pages by the browser suite). */
    public static String axeSource() {
        PROJECT.install();
        try {
            return Files.readString(PROJECT.dir().resolve("node_modules/axe-core/axe.min.js"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
