package io.agentgateway.launcher.support;

import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.JsonNode;

/**
 * Sends webhook deliveries to the gateway as the code host and the issue tracker do: raw bytes with
 * the signature and delivery headers, built from the payload templates in {@code src/test/resources/webhooks}.
 */
public final class WebhookSender {
    public static final String CODE_HOST = "/functions/v1/webhook-code-host";
    public static final String ISSUE_TRACKER = "/functions/v1/webhook-issue-tracker";

    public record Response(int status, JsonNode body, String rawBody) {}

    private static final HttpClient HTTP = GatewayHarness.http11Client();

    private WebhookSender() {}

    /** A payload template with its {@code {{name}}} placeholders filled in. */
    public static byte[] payload(String template, Map<String, String> values) {
        try (InputStream in = WebhookSender.class.getResourceAsStream("/webhooks/" + template)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (Map.Entry<String, String> value : values.entrySet()) {
                text = text.replace("{{" + value.getKey() + "}}", value.getValue());
            }
            return text.getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The body with a field of its own added: another event. Real senders' bodies differ from one event to the
     * next, and the gateway deduplicates by the signed body's digest as well as the delivery id.
     */
    public static byte[] anotherEvent(byte[] body) {
        tools.jackson.databind.node.ObjectNode node =
                (tools.jackson.databind.node.ObjectNode) io.agentgateway.schemas.GatewayJson.MAPPER.readTree(body);
        node.put("event_nonce", java.util.UUID.randomUUID().toString());
        return io.agentgateway.schemas.GatewayJson.MAPPER.writeValueAsBytes(node);
    }

    static String hmacHex(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Headers of a code-host delivery signed with {@code secret}, under the real code host's header names. */
    public static Map<String, String> gitHubHeaders(String secret, byte[] body, String event, String deliveryId) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-Hub-Signature-256", "sha256=" + hmacHex(secret, body));
        headers.put("X-GitHub-Event", event);
        headers.put("X-GitHub-Delivery", deliveryId);
        return headers;
    }

    /** The same under the spec's neutral names. */
    public static Map<String, String> codeHostHeaders(String secret, byte[] body, String event, String deliveryId) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-Code-Host-Signature-256", "sha256=" + hmacHex(secret, body));
        headers.put("X-Code-Host-Event", event);
        headers.put("X-Code-Host-Delivery", deliveryId);
        return headers;
    }

    public static Map<String, String> linearHeaders(String secret, byte[] body, String deliveryId) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Linear-Signature", hmacHex(secret, body));
        headers.put("Linear-Delivery", deliveryId);
        headers.put("Linear-Event", "Issue");
        return headers;
    }

    public static Response post(String path, byte[] body, Map<String, String> headers) {
        return post(GatewayHarness.gateway().baseUrl(), path, body, headers);
    }

    /** To another ingress of the gateway (a replica). */
    public static Response post(String baseUrl, String path, byte[] body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json;
            try {
                json = GatewayJson.MAPPER.readTree(response.body());
            } catch (RuntimeException notJson) {
                json = null;
            }
            return new Response(response.statusCode(), json, response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
