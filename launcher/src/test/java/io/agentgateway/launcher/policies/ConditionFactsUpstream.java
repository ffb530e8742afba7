package io.agentgateway.launcher.policies;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import tools.jackson.databind.JsonNode;

/**
 * A code host and issue tracker for {@link ConditionalProxyEndToEndTest}: answers the gateway's lookups of facts a
 * request does not carry, and the calls the policies let through. Pull requests: 1 merges into {@code main}, 2 into
 * {@code release}, 3 cannot be looked up (500), 4 names its base as {@code refs/heads/main}. Issues: {@code ISS-DELETABLE}
 * carries the label {@code Deletable}, {@code ISS-KEEP} only {@code bug}, {@code ISS-ERROR} cannot be looked up.
 * Records every request (method, path, body).
 */
final class ConditionFactsUpstream implements AutoCloseable {
    record Request(String method, String path, String body) {}

    final List<Request> requests = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    private ConditionFactsUpstream() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
    }

    static ConditionFactsUpstream start() {
        try {
            return new ConditionFactsUpstream();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Request> requestsTo(String prefix) {
        return requests.stream().filter(r -> r.path().startsWith(prefix)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(new Request(exchange.getRequestMethod(), path, body));
            int status = 200;
            String answer;
            if (exchange.getRequestMethod().equals("GET") && path.matches(".*/repos/[^/]+/[^/]+/pulls/\\d+")) {
                String number = path.substring(path.lastIndexOf('/') + 1);
                switch (number) {
                    case "1" -> answer = pull(number, "main");
                    case "2" -> answer = pull(number, "release");
                    case "4" -> answer = pull(number, "refs/heads/main");
                    default -> {
                        status = 500;
                        answer = "{\"message\":\"Server Error\"}";
                    }
                }
            } else if (exchange.getRequestMethod().equals("PUT") && path.endsWith("/merge")) {
                answer = "{\"sha\":\"6dcb09b5b57875f334f61aebed695e2e4193db5e\",\"merged\":true,\"message\":\"merged\"}";
            } else if (exchange.getRequestMethod().equals("PUT") && path.contains("/contents/")) {
                status = 201;
                answer = "{\"content\":{\"name\":\"x\"},\"commit\":{\"sha\":\"abc\"}}";
            } else if (path.endsWith("/graphql")) {
                JsonNode request = GatewayJson.MAPPER.readTree(body);
                String query = request.path("query").asString("");
                String id = request.path("variables").path("id").asString("");
                if (query.contains("GatewayPolicyFacts")) {
                    switch (id) {
                        case "ISS-DELETABLE" -> answer = issue("Deletable");
                        case "ISS-KEEP" -> answer = issue("bug");
                        default -> {
                            status = 500;
                            answer = "{\"errors\":[{\"message\":\"internal\"}]}";
                        }
                    }
                } else {
                    answer = "{\"data\":{\"issueDelete\":{\"__typename\":\"IssueArchivePayload\",\"success\":true,\"lastSyncId\":3}}}";
                }
            } else {
                answer = "{}";
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

    private static String pull(String number, String base) {
        return "{\"number\":" + number + ",\"state\":\"open\",\"base\":{\"ref\":\"" + base + "\"},\"labels\":[{\"name\":\"ready\"}]}";
    }

    private static String issue(String label) {
        return "{\"data\":{\"issue\":{\"labels\":{\"nodes\":[{\"name\":\"" + label + "\"}]},\"team\":{\"key\":\"ENG\"}}}}";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
