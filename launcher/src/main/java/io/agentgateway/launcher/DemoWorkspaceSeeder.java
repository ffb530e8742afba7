package io.agentgateway.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * On the first start of the embedded default, creates a demo workspace through the admin API, with
 * an owner and an API key, and prints the owner's JWT and the key once. A marker file in the data
 * directory keeps later starts from seeding again; the key is never written to disk.
 */
final class DemoWorkspaceSeeder {
    static final String OWNER_ID = "demo-owner";
    static final String OWNER_EMAIL = "owner@demo.local";

    private DemoWorkspaceSeeder() {}

    static void seedOnce(EmbeddedGateway gateway) {
        Path marker = gateway.settings().dataDir().resolve("demo-workspace.txt");
        if (Files.exists(marker)) {
            try {
                System.out.println("Demo workspace (created on first start): " + Files.readString(marker).trim());
            } catch (IOException ignored) {
                // the marker is informational
            }
            printSignInLink(gateway);
            return;
        }
        String jwt = DevJwts.sign(gateway.secrets().jwtSecret(), OWNER_ID, OWNER_EMAIL, Duration.ofDays(30));
        var demo = WorkspaceBootstrap.create(new GatewayHttpClient(gateway.baseUrl()), gateway.operatorJwt(), jwt, "Demo workspace",
                List.of("evaluate", "mcp", "proxy"));
        String workspaceId = demo.workspaceId();
        try {
            Files.writeString(marker, workspaceId + System.lineSeparator());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println();
        System.out.println("=== Demo workspace created (shown once; save these) ===");
        System.out.println("Gateway:       " + gateway.baseUrl());
        System.out.println("Workspace id:  " + workspaceId);
        System.out.println("Owner JWT:     " + jwt + "   (user " + OWNER_ID + ", valid 30 days)");
        System.out.println("Agent API key: " + demo.apiKey() + "   (scopes evaluate, mcp, proxy)");
        System.out.println("Operator:      " + gateway.operators().get(0) + "   (creates and lists workspaces; sign its JWT with"
                + " the HS256 secret in " + gateway.settings().dataDir().resolve("secrets.properties") + ")");
        System.out.println("=======================================================");
        System.out.println();
        printSignInLink(gateway);
    }

    /**
     * A one-time console sign-in link for the demo owner, at every start of the embedded default without an identity
     * provider: the console needs no IdP here. Single use, valid for {@code gateway.console.link-ttl} (15 minutes).
     */
    static void printSignInLink(EmbeddedGateway gateway) {
        if (gateway.oidcConfigured()) {
            System.out.println("Console:       " + gateway.baseUrl() + "/   (sign in with the configured identity provider)");
            return;
        }
        String link = gateway.consoleSignInLink(OWNER_ID, OWNER_EMAIL);
        System.out.println("Console:       " + link);
        System.out.println("               (one-time sign-in link for " + OWNER_ID + ", valid 15 minutes; restart for a new one)");
        System.out.println();
    }
}
