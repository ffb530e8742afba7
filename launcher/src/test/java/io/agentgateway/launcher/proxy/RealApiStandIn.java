package io.agentgateway.launcher.proxy;

import com.sun.net.httpserver.HttpExchange;
import io.agentgateway.launcher.support.RealClients;
import io.agentgateway.launcher.support.RecordingServer;
import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.JsonNode;

/**
 * The code host's and the issue tracker's APIs as far as the real-client tests need them, behind the
 * proxy: a JDK HTTP server that records every request and answers what {@code @octokit/rest} and
 * {@code @linear/sdk} expect. A connection's base URL is this server's address plus a path of the test's
 * own ({@code /gh-<uuid>}), which the answers keep:
 * <ul>
 *   <li>{@code GET …/repos/<o>/<r>/issues} and {@code GET …/repositories/42/issues}: {@link #ISSUES} issues,
 *       {@code per_page} at a time, with the code host's {@code Link} header (absolute URLs under the base,
 *       the {@code /repositories/<id>} form the code host uses for its next pages);</li>
 *   <li>{@code POST …/graphql}: {@code {"data": …}} with the root fields the tests' documents ask for
 *       ({@code viewer}, {@code issueCreate}, …), each with the fields the libraries read;</li>
 *   <li>{@code GET …/contents/<path>}: the file as the code host's JSON (base64 {@code content}), or, asked for
 *       {@code application/vnd.github.v3.raw}, its bytes ({@link #FILE});</li>
 *   <li>{@code GET …/pulls/<n>}: the pull request as JSON, or, asked for {@code application/vnd.github.v3.diff},
 *       its diff ({@link #DIFF});</li>
 *   <li>{@code PUT …/pulls/<n>/merge}: 200 {@code {"merged":true,…}};</li>
 *   <li>{@code POST}: 201 {@code {"number":1}}; anything else 200 {@code {}}.</li>
 * </ul>
 *
 * <p>A test class registers one ({@code @RegisterExtension static final RealApiStandIn upstream = RealApiStandIn.start()}):
 * before its tests the real clients are installed ({@link RealClients#install}); after them the server stops.
 */
final class RealApiStandIn extends RecordingServer<RealApiStandIn.Request> implements BeforeAllCallback, AfterAllCallback {
    static final int ISSUES = 5;
    static final String FILE = "# api\n\nThe raw README, byte for byte.\n";
    static final String DIFF = "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-old\n+new\n";

    record Request(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, String body)
            implements RecordingServer.Recorded {}

    private RealApiStandIn() {
        super("real-api-stand-in", true);
    }

    static RealApiStandIn start() {
        return new RealApiStandIn();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        RealClients.install();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    protected void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            String query = exchange.getRequestURI().getRawQuery();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, List<String>> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), List.copyOf(values)));
            requests.add(new Request(exchange.getRequestMethod(), path, query, headers, body));

            int status = 200;
            String answer;
            String contentType = "application/json; charset=utf-8";
            String accept = exchange.getRequestHeaders().getFirst("Accept");
            if (exchange.getRequestMethod().equals("GET") && path.contains("/contents/")) {
                if ("application/vnd.github.v3.raw".equals(accept)) {
                    answer = FILE;
                    contentType = "application/vnd.github.v3.raw; charset=utf-8";
                } else {
                    answer = "{\"type\":\"file\",\"encoding\":\"base64\",\"content\":\""
                            + java.util.Base64.getEncoder().encodeToString(FILE.getBytes(StandardCharsets.UTF_8)) + "\"}";
                }
            } else if (exchange.getRequestMethod().equals("GET") && path.matches(".*/pulls/\\d+")) {
                if ("application/vnd.github.v3.diff".equals(accept)) {
                    answer = DIFF;
                    contentType = "application/vnd.github.v3.diff; charset=utf-8";
                } else {
                    answer = "{\"number\":7,\"state\":\"open\"}";
                }
            } else if (exchange.getRequestMethod().equals("PUT") && path.endsWith("/merge")) {
                answer = "{\"sha\":\"6dcb09b5b57875f334f61aebed695e2e4193db5e\",\"merged\":true,\"message\":\"Pull Request successfully merged\"}";
            } else if (path.endsWith("/graphql")) {
                answer = graphQl(body);
            } else if (exchange.getRequestMethod().equals("GET") && path.endsWith("/issues")) {
                answer = issuesPage(exchange, path, query);
            } else if (exchange.getRequestMethod().equals("POST")) {
                status = 201;
                answer = "{\"number\":1}";
            } else {
                answer = "{}";
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

    /** One page of issues, with the code host's {@code Link} header pointing at the next ones under the base. */
    private String issuesPage(HttpExchange exchange, String path, String query) {
        int perPage = intParameter(query, "per_page", 30);
        int page = intParameter(query, "page", 1);
        int pages = (ISSUES + perPage - 1) / perPage;
        int reposAt = path.contains("/repos/") ? path.indexOf("/repos/") : path.indexOf("/repositories/");
        String next = baseUrl() + path.substring(0, reposAt) + "/repositories/42/issues?per_page=" + perPage + "&page=";
        List<String> links = new ArrayList<>();
        if (page < pages) {
            links.add("<" + next + (page + 1) + ">; rel=\"next\"");
            links.add("<" + next + pages + ">; rel=\"last\"");
        }
        if (page > 1) {
            links.add("<" + next + (page - 1) + ">; rel=\"prev\"");
            links.add("<" + next + 1 + ">; rel=\"first\"");
        }
        if (!links.isEmpty()) {
            exchange.getResponseHeaders().add("Link", String.join(", ", links));
        }
        List<String> issues = new ArrayList<>();
        for (int number = (page - 1) * perPage + 1; number <= Math.min(page * perPage, ISSUES); number++) {
            issues.add("{\"number\":" + number + ",\"title\":\"Issue " + number + "\"}");
        }
        return "[" + String.join(",", issues) + "]";
    }

    private static String graphQl(String body) {
        JsonNode request = GatewayJson.MAPPER.readTree(body);
        String document = request.path("query").asString("");
        Map<String, Object> data = new LinkedHashMap<>();
        if (document.contains("viewer")) {
            data.put("viewer", Map.of("id", "user-1", "login", "octocat", "name", "Ada", "email", "ada@example.com"));
        }
        if (document.contains("issueCreate")) {
            data.put("issueCreate", Map.of("__typename", "IssuePayload", "success", true, "lastSyncId", 1,
                    "issue", Map.of("id", "ISS-2")));
        }
        if (document.contains("issueDelete")) {
            data.put("issueDelete", Map.of("__typename", "IssueArchivePayload", "success", true, "lastSyncId", 2));
        }
        return GatewayJson.MAPPER.writeValueAsString(Map.of("data", data));
    }

    private static int intParameter(String query, String name, int fallback) {
        if (query != null) {
            for (String pair : query.split("&")) {
                if (pair.startsWith(name + "=")) {
                    return Integer.parseInt(pair.substring(name.length() + 1));
                }
            }
        }
        return fallback;
    }
}
