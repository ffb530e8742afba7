package io.agentgateway.benchmark.data;

import io.agentgateway.benchmark.ConditionBenchmark;
import io.agentgateway.benchmark.GatewayBenchmark;
import io.agentgateway.schemas.GatewayJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code -Dbench.policies=N} ({@link GatewayBenchmark}): N policies on the benchmark's tool (chat) put into the
 * workspace through the admin API before the warm-up. {@code -Dbench.policyConditions=true}: each matches the
 * benchmark's {@code message.send} by its lists and has a condition that is false for it, so every decision evaluates
 * all N conditions; false (the default): each names another action, so its lists pass it over. Compare CPU per
 * decision at 500/s with and without (docs/benchmarks.md).
 */
public final class ConditionalPolicies {
    private ConditionalPolicies() {}

    public static void create(String baseUrl, String workspaceId, String ownerJwt, int count, boolean conditional)
            throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < count; i++) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("name", "bench policy " + i);
            body.put("priority", i);
            body.put("decision", "block");
            body.put("match", Map.of("tools", List.of("chat"), "actions", List.of(conditional ? "message.send" : "message.delete" + i)));
            if (conditional) {
                body.put("condition", ConditionBenchmark.condition(i));
            }
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                            URI.create(baseUrl + "/admin/v1/workspaces/" + workspaceId + "/policies"))
                    .header("Authorization", "Bearer " + ownerJwt)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(GatewayJson.MAPPER.writeValueAsBytes(body)))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IOException("creating policy " + i + ": " + response.statusCode() + " " + response.body());
            }
        }
        System.out.printf(Locale.ROOT, "workspace: %d policies on chat, %s%n", count,
                conditional ? "each reached by its lists and its condition false (all evaluated per decision)"
                        : "without conditions, each passed over by its lists");
    }
}
