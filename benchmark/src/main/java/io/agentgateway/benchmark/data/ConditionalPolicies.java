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

    /**
     * {@code -Dbench.features=all}: the policy set of a workspace in use, every decision of the benchmark
     * ({@code chat message.send #ops "hello"}, low risk) passing it to the workspace's default: three policies on chat
     * reached by their lists whose conditions are false for it (an external channel, a secret in the text, an intern's
     * agent after hours), and nine on the other tools that its lists pass over. A build without policy conditions (an
     * older baseline) gets the nine and is told so: the three would match every call without their conditions.
     */
    public static void realistic(String baseUrl, String workspaceId, String ownerJwt) throws IOException, InterruptedException {
        List<Map<String, Object>> policies = List.of(
                policy("external channels need a human", "require_approval", "chat", "message.send",
                        "args.channel.startsWith('#ext-') || args.channel.startsWith('#shared-')"),
                policy("no secrets in chat", "block", "chat", "message.send",
                        "args.text.contains('BEGIN PRIVATE KEY') || args.text.contains('password=')"),
                policy("interns' agents in office hours", "block", "chat", "message.send",
                        "agent.id.startsWith('intern-') && (time.hour < 8 || time.hour >= 19)"),
                policy("no repository deletes", "block", "code_host", "repos.delete", null),
                policy("merges need a human", "require_approval", "code_host", "pull_request.merge", null),
                policy("workflow edits need a human", "require_approval", "code_host", "contents.write", null),
                policy("no branch protection changes", "block", "code_host", "branches.update_protection", null),
                policy("issue deletes need a human", "require_approval", "issue_tracker", "issue.delete", null),
                policy("no project deletes", "block", "issue_tracker", "project.delete", null),
                policy("page deletes need a human", "require_approval", "docs", "page.delete", null),
                policy("no space permission changes", "block", "docs", "space.permissions.update", null),
                policy("channel deletes blocked", "block", "chat", "channel.delete", null));
        HttpClient http = HttpClient.newHttpClient();
        int created = 0;
        int withoutConditions = 0;
        for (int i = 0; i < policies.size(); i++) {
            Map<String, Object> body = new LinkedHashMap<>(policies.get(i));
            body.put("priority", i);
            HttpResponse<String> response = post(http, baseUrl, workspaceId, ownerJwt, body);
            if (response.statusCode() == 400 && body.containsKey("condition")) {
                withoutConditions++;
                continue;
            }
            if (response.statusCode() / 100 != 2) {
                throw new IOException("creating policy " + body.get("name") + ": " + response.statusCode() + " " + response.body());
            }
            created++;
        }
        System.out.printf(Locale.ROOT, "workspace: %d policies of a workspace in use (conditions evaluated per decision: %d)%s%n",
                created, policies.size() - 9 - withoutConditions,
                withoutConditions > 0 ? "; this build refused " + withoutConditions + " policies with conditions, left out" : "");
    }

    private static Map<String, Object> policy(String name, String decision, String tool, String action, String condition) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("decision", decision);
        body.put("match", Map.of("tools", List.of(tool), "actions", List.of(action)));
        if (condition != null) {
            body.put("condition", condition);
        }
        return body;
    }

    private static HttpResponse<String> post(HttpClient http, String baseUrl, String workspaceId, String ownerJwt,
                                             Map<String, Object> body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/admin/v1/workspaces/" + workspaceId + "/policies"))
                .header("Authorization", "Bearer " + ownerJwt)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(GatewayJson.MAPPER.writeValueAsBytes(body)))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

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
            HttpResponse<String> response = post(http, baseUrl, workspaceId, ownerJwt, body);
            if (response.statusCode() / 100 != 2) {
                throw new IOException("creating policy " + i + ": " + response.statusCode() + " " + response.body());
            }
        }
        System.out.printf(Locale.ROOT, "workspace: %d policies on chat, %s%n", count,
                conditional ? "each reached by its lists and its condition false (all evaluated per decision)"
                        : "without conditions, each passed over by its lists");
    }
}
