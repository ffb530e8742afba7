package io.agentgateway.ingresstestsupport;

import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** A small JSON HTTP client over the JDK's HttpClient. */
public final class TestHttp {
    private final String baseUrl;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    TestHttp(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public record Response(int status, HttpResponseHeaders headers, String text) {
        public JsonNode json() {
            return GatewayJson.MAPPER.readTree(text);
        }

        public String error() {
            return json().path("error").asString();
        }
    }

    public record HttpResponseHeaders(java.net.http.HttpHeaders raw) {
        public String first(String name) {
            return raw.firstValue(name).orElse(null);
        }
    }

    public Request request(String method, String path) {
        return new Request(method, path);
    }

    public Request get(String path) {
        return request("GET", path);
    }

    public Request post(String path) {
        return request("POST", path);
    }

    public Request put(String path) {
        return request("PUT", path);
    }

    public Request delete(String path) {
        return request("DELETE", path);
    }

    public final class Request {
        private final String method;
        private final String path;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private String body;

        private Request(String method, String path) {
            this.method = method;
            this.path = path;
        }

        public Request header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        public Request bearer(String token) {
            return header("Authorization", "Bearer " + token);
        }

        /** A raw body sent as application/json unless a Content-Type was set. */
        public Request body(String json) {
            this.body = json;
            headers.putIfAbsent("Content-Type", "application/json");
            return this;
        }

        public Request json(Object value) {
            return body(GatewayJson.MAPPER.writeValueAsString(value));
        }

        public Response send() {
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .timeout(Duration.ofSeconds(60))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            headers.forEach(builder::header);
            try {
                HttpResponse<String> response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
                return new Response(response.statusCode(), new HttpResponseHeaders(response.headers()), response.body());
            } catch (IOException e) {
                throw new IllegalStateException("request failed: " + method + " " + path, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
