package io.agentgateway.notifier.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server standing in for a chat incoming webhook. Each test uses its own path and can
 * make that path fail a number of times, fail always, or never answer.
 */
public final class ChatWebhookServer implements AutoCloseable {

    /** One POST as the server saw it, and the status it answered. */
    public record Post(String path, String contentType, String body, int status) {
        /** The {@code text} field of the Slack-style JSON body. */
        public String text() {
            return GatewayJson.MAPPER.readTree(body).get("text").asString();
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Post> posts = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();
    private final Map<String, Boolean> hanging = new ConcurrentHashMap<>();
    private final Map<String, Long> delaysMillis = new ConcurrentHashMap<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    private ChatWebhookServer(HttpServer server) {
        this.server = server;
    }

    public static ChatWebhookServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            ChatWebhookServer webhook = new ChatWebhookServer(server);
            server.createContext("/", webhook::handle);
            server.setExecutor(webhook.executor);
            server.start();
            return webhook;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The next {@code times} posts to {@code path} are answered with 500. */
    public void failNext(String path, int times) {
        failuresLeft.put(path, new AtomicInteger(times));
    }

    public void failAlways(String path) {
        failNext(path, Integer.MAX_VALUE);
    }

    /** Posts to {@code path} are read but never answered (until the server closes). */
    public void neverAnswer(String path) {
        hanging.put(path, true);
    }

    /** Posts to {@code path} are answered after {@code delay}: a slow chat service. */
    public void answerAfter(String path, java.time.Duration delay) {
        delaysMillis.put(path, delay.toMillis());
    }

    public List<Post> posts(String path) {
        return posts.stream().filter(post -> post.path().equals(path)).toList();
    }

    public List<Post> acceptedPosts(String path) {
        return posts(path).stream().filter(post -> post.status() / 100 == 2).toList();
    }

    public List<Post> allPosts() {
        return List.copyOf(posts);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (hanging.containsKey(path)) {
                posts.add(new Post(path, exchange.getRequestHeaders().getFirst("Content-Type"), body, 0));
                awaitClose();
                return;
            }
            Long delay = delaysMillis.get(path);
            if (delay != null) {
                try {
                    Thread.sleep(delay); // the slow service this stands in for
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int status = !"POST".equals(exchange.getRequestMethod()) ? 405 : shouldFail(path) ? 500 : 200;
            posts.add(new Post(path, exchange.getRequestHeaders().getFirst("Content-Type"), body, status));
            byte[] answer = (status == 200 ? "ok" : "failure").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
        }
    }

    private boolean shouldFail(String path) {
        AtomicInteger left = failuresLeft.get(path);
        return left != null && left.getAndUpdate(n -> n == Integer.MAX_VALUE ? n : Math.max(0, n - 1)) > 0;
    }

    private void awaitClose() {
        try {
            closing.await(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
