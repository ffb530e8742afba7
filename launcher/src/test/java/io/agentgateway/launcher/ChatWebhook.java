package io.agentgateway.launcher;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A workspace's chat incoming webhook, stood in for by a JDK HTTP server on loopback for each test
 * ({@code @RegisterExtension} on an instance field): every body posted to its path is kept in order, each answered 200.
 */
final class ChatWebhook implements BeforeEachCallback, AfterEachCallback {
    private final String path;
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private LoopbackServer server;

    ChatWebhook(String path) {
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

    /** Every body posted, in arrival order. */
    List<String> bodies() {
        return bodies;
    }
}
