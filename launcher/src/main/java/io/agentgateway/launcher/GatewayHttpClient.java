package io.agentgateway.launcher;

import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;

/**
 * A small JSON client for the gateway's HTTP API, used by the demo seeding, the end-to-end tests and
 * the benchmark, so all three speak to the gateway exactly as an agent or an admin would.
 */
public final class GatewayHttpClient {

    /** A response: its status and parsed JSON body (null when the body is not JSON). */
    public record Response(int status, JsonNode body, String rawBody) {
        public String text(String field) {
            JsonNode v = body == null ? null : body.get(field);
            return v == null || v.isNull() ? null : v.asString();
        }
    }

    private final HttpClient http;
    private final String baseUrl;

    public GatewayHttpClient(String baseUrl) {
        this.baseUrl = baseUrl;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    public Response send(String method, String path, String bearer, Object jsonBody) {
        try {
            return sendAsync(method, path, bearer, jsonBody).join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw e;
        }
    }

    /** With extra request headers (e.g. {@code Idempotency-Key}). */
    public Response send(String method, String path, String bearer, Object jsonBody, java.util.Map<String, String> headers) {
        try {
            return sendAsync(method, path, bearer, jsonBody, headers).join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw e;
        }
    }

    public CompletableFuture<Response> sendAsync(String method, String path, String bearer, Object jsonBody) {
        return sendAsync(method, path, bearer, jsonBody, java.util.Map.of());
    }

    public CompletableFuture<Response> sendAsync(String method, String path, String bearer, Object jsonBody,
                                                 java.util.Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30));
        headers.forEach(request::header);
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.noBody();
        if (jsonBody != null) {
            String json = jsonBody instanceof String s ? s : GatewayJson.MAPPER.writeValueAsString(jsonBody);
            body = HttpRequest.BodyPublishers.ofString(json);
            request.header("Content-Type", "application/json");
        }
        return http.sendAsync(request.method(method, body).build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> new Response(r.statusCode(), parse(r.body()), r.body()));
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return GatewayJson.MAPPER.readTree(body);
        } catch (RuntimeException notJson) {
            return null;
        }
    }
}
