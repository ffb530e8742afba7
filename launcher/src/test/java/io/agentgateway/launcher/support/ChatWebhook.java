package io.agentgateway.launcher.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A workspace's chat incoming webhook, stood in for by a JDK HTTP server on loopback for each test
 * ({@code @RegisterExtension} on an instance field): every body posted to its path is kept in order, each answered 200.
 */
public final class ChatWebhook implements BeforeEachCallback, AfterEachCallback {
    private final String path;
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private LoopbackServer server;

    public ChatWebhook(String path) {
        this.path = path;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        server = LoopbackServer.start("chat-webhook", false, exchange -> {
            if (exchange.getRequestURI().getPath().startsWith(path)) {
                bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(200, -1);
            } else {
                exchange.sendResponseHeaders(404, -1);
            }
            exchange.close();
        });
    }

    @Override
    public void afterEach(ExtensionContext context) {
        server.close();
    }

    /** The URL to configure as the workspace's chat webhook. */
    String url() {
        return server.baseUrl() + path;
    }

    /** Turns the workspace's notifications on: emails, and chat messages to this webhook. @return the webhook's URL */
    public String notifyEmailAndChatOf(TestWorkspace ws) {
        String webhook = url();
        assertThat(GatewayHarness.client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/notification-settings", ws.ownerJwt(),
                Map.of("chatWebhookUrl", webhook, "emailEnabled", true)).status()).isIn(200, 204);
        return webhook;
    }

    /** Every body posted, in arrival order. */
    public List<String> bodies() {
        return bodies;
    }
}
