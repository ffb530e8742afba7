package io.agentgateway.launcher.proxy;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.ProxyTestSupport.auditRow;
import static io.agentgateway.launcher.support.ProxyTestSupport.connect;
import static io.agentgateway.launcher.support.ProxyTestSupport.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.RealClients;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Issue 16: what the real SDKs from npm ({@link RealClients}) show agent code when an agent developer changes
 * only the base URL and the key: {@code @octokit/rest} with its default {@code auth} ({@code token agk_…}) and
 * {@code @linear/sdk} with {@code apiKey} (the bare key), against {@link RealApiStandIn}. Allowed calls return
 * what the upstream answered (JSON, raw files, diffs, every page); blocked and held calls throw the SDK's own
 * error class with a message that says so, the approval id and status URL reachable from the error object.
 */
class RealClientSurfaceTest {
    private static final String PROXY = "/functions/v1/gateway-proxy/";
    private static final String STATUS = "/functions/v1/mcp-gate/status/";
    private static final Map<String, String> AGENTS = Map.of("allowed", "merge-bot", "blocked", "rogue-bot", "held", "dev-bot");
    @RegisterExtension
    static final RealApiStandIn upstream = RealApiStandIn.start();

    @Test
    void octokitWithItsDefaultAuthSeesMergesAllowedBlockedAndHeldAsTheCodeHostsOwnAnswersAndErrors() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        policy(ws, "merges by the merge bot", "allow", Map.of("actions", List.of("pull_request.merge"), "agentIds", List.of("merge-bot")));
        policy(ws, "nothing by the rogue bot", "block", Map.of("agentIds", List.of("rogue-bot")));
        String base = "/gh-" + UUID.randomUUID();
        String token = token();
        connect(ws, "code_host", Map.of("config", Map.of("access_token", token), "base_url", upstream.baseUrl() + base));
        String gateway = GatewayHarness.gateway().baseUrl();

        JsonNode cases = RealClients.run("octokit-surface.mjs",
                Map.of("proxyBaseUrl", gateway + PROXY + "code_host", "apiKey", ws.apiKey(), "agents", AGENTS));

        assertSoftly(softly -> {
            // allowed: the code host's own answer
            JsonNode allowed = cases.get("mergeAllowed");
            softly.assertThat(allowed.at("/value/status").asInt(-1)).as(allowed.toString()).isEqualTo(200);
            softly.assertThat(allowed.at("/value/merged").booleanValue()).as(allowed.toString()).isTrue();
            softly.assertThat(audit(allowed)).containsEntry("action", "pull_request.merge").containsEntry("decision", "allow")
                    .containsEntry("agent_id", "merge-bot");

            // blocked: octokit's RequestError, status 403, the gateway's message instead of "Unknown error: {json}"
            JsonNode blocked = cases.get("mergeBlocked");
            softly.assertThat(blocked.get("ok").booleanValue()).as(blocked.toString()).isFalse();
            softly.assertThat(blocked.get("errorClass").asString()).isEqualTo("RequestError");
            softly.assertThat(blocked.get("status").asInt(-1)).isEqualTo(403);
            softly.assertThat(blocked.get("error").asString()).startsWith("Blocked by the gateway: ").contains("nothing by the rogue bot");
            softly.assertThat(blocked.at("/body/decision").asString()).isEqualTo("block");
            softly.assertThat(blocked.at("/body/auditLogId").asString()).isEqualTo(blocked.at("/exchanges/0/auditLogId").asString());
            softly.assertThat(audit(blocked)).containsEntry("decision", "block").containsEntry("agent_id", "rogue-bot");

            // held: thrown, never a resolved call with data.merged undefined; the approval id and status URL on the error
            JsonNode held = cases.get("mergeHeld");
            softly.assertThat(held.get("ok").booleanValue()).as(held.toString()).isFalse();
            softly.assertThat(held.get("errorClass").asString()).isEqualTo("RequestError");
            softly.assertThat(held.get("status").asInt(-1)).isEqualTo(403);
            String approvalId = held.at("/body/approvalRequestId").asString();
            softly.assertThat(approvalId).as(held.toString()).isNotBlank();
            softly.assertThat(held.at("/body/decision").asString()).isEqualTo("require_approval");
            softly.assertThat(held.at("/body/statusUrl").asString()).isEqualTo(STATUS + approvalId);
            softly.assertThat(held.get("error").asString())
                    .startsWith("Held for approval by the gateway: approval " + approvalId + " waits for a reviewer")
                    .endsWith("its outcome: " + gateway + STATUS + approvalId);
            softly.assertThat(audit(held)).containsEntry("action", "pull_request.merge").containsEntry("decision", "require_approval");
            // the status URL the error names answers the same key
            var status = client().send("GET", STATUS + approvalId, ws.apiKey(), null);
            softly.assertThat(status.status()).as(status.rawBody()).isEqualTo(200);
            softly.assertThat(status.text("status")).isEqualTo("pending");

            // critical: blocked by the built-in defaults
            JsonNode deleteRef = cases.get("deleteRef");
            softly.assertThat(deleteRef.get("status").asInt(-1)).as(deleteRef.toString()).isEqualTo(403);
            softly.assertThat(deleteRef.get("error").asString()).isEqualTo("Blocked by the gateway: No policy matched; workspace default for critical risk is block");
            softly.assertThat(audit(deleteRef)).containsEntry("action", "ref.delete").containsEntry("risk_level", "critical");

            // every page through the gateway
            JsonNode paginate = cases.get("paginate");
            softly.assertThat(paginate.get("value").toString()).as(paginate.toString()).isEqualTo("[1,2,3,4,5]");
            softly.assertThat(paginate.get("exchanges")).hasSize(3);
            paginate.get("exchanges").forEach(exchange -> softly.assertThat(exchange.get("url").asString())
                    .startsWith(gateway + PROXY + "code_host/"));

            // media types: the agent's own format of the code host's type goes up, the answer comes back as sent
            JsonNode raw = cases.get("rawContent");
            softly.assertThat(raw.at("/value/data").asString()).as(raw.toString()).isEqualTo(RealApiStandIn.FILE);
            softly.assertThat(raw.at("/value/contentType").asString()).startsWith("application/vnd.github.v3.raw");
            softly.assertThat(cases.at("/jsonContent/value/content").asString()).as(cases.get("jsonContent").toString())
                    .isEqualTo(RealApiStandIn.FILE);
            JsonNode diff = cases.get("diff");
            softly.assertThat(diff.at("/value/data").asString()).as(diff.toString()).isEqualTo(RealApiStandIn.DIFF);
            softly.assertThat(diff.at("/value/contentType").asString()).startsWith("application/vnd.github.v3.diff");

            softly.assertThat(cases.at("/bearerAuth/value").asInt(-1)).as(cases.get("bearerAuth").toString()).isEqualTo(201);
            JsonNode wrongKey = cases.get("wrongKey");
            softly.assertThat(wrongKey.get("status").asInt(-1)).as(wrongKey.toString()).isEqualTo(401);
            // every error of the proxy is in the code host's dialect: the gateway's text, not "Unknown error: {json}"
            softly.assertThat(wrongKey.get("error").asString()).isEqualTo("Invalid or expired API key");

            // what reached the code host: only the allowed calls, with the tool's credential, never the agent's key
            List<RealApiStandIn.Request> arrived = upstream.requestsTo(base);
            softly.assertThat(arrived).extracting(r -> r.method() + " " + r.rawPath().substring(base.length()))
                    .containsExactlyInAnyOrder("PUT /repos/acme/api/pulls/7/merge", "GET /repos/acme/api/issues",
                            "GET /repositories/42/issues", "GET /repositories/42/issues", "GET /repos/acme/api/contents/README.md",
                            "GET /repos/acme/api/contents/README.md", "GET /repos/acme/api/pulls/7", "POST /repos/acme/api/issues");
            for (RealApiStandIn.Request request : arrived) {
                softly.assertThat(request.headers().get("authorization")).as(request.rawPath()).containsExactly("token " + token);
                softly.assertThat(request.headers().toString() + request.rawQuery() + request.body()).doesNotContain(ws.apiKey());
            }
            softly.assertThat(arrived).filteredOn(r -> r.rawPath().endsWith("/issues") || r.rawPath().endsWith("/merge"))
                    .allSatisfy(r -> assertThat(r.headers().get("accept")).containsExactly("application/vnd.github.v3+json"));
        });
    }

    @Test
    void theLinearSdkWithItsApiKeySeesBlockedAndHeldDeletesAsForbiddenLinearErrors() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        policy(ws, "no deletes by the rogue bot", "block", Map.of("actions", List.of("issue.delete"), "agentIds", List.of("rogue-bot")));
        String base = "/lin-" + UUID.randomUUID();
        String token = "lin_oauth_" + UUID.randomUUID();
        connect(ws, "issue_tracker", Map.of("config", Map.of("access_token", token), "base_url", upstream.baseUrl() + base));
        String gateway = GatewayHarness.gateway().baseUrl();

        JsonNode cases = RealClients.run("linear-surface.mjs",
                Map.of("proxyBaseUrl", gateway + PROXY + "issue_tracker", "apiKey", ws.apiKey(), "agents", AGENTS));

        assertSoftly(softly -> {
            softly.assertThat(cases.at("/viewer/value/id").asString()).as(cases.get("viewer").toString()).isEqualTo("user-1");
            softly.assertThat(cases.at("/createIssue/value/success").booleanValue()).as(cases.get("createIssue").toString()).isTrue();
            softly.assertThat(audit(cases.get("createIssue"))).containsEntry("action", "issue.create").containsEntry("decision", "allow");

            JsonNode held = cases.at("/deleteHeld/value");
            softly.assertThat(held.get("threw").booleanValue()).as(held.toString()).isTrue();
            softly.assertThat(held.get("errorClass").asString()).isEqualTo("ForbiddenLinearError");
            softly.assertThat(held.get("type").asString()).isEqualTo("Forbidden");
            softly.assertThat(held.get("status").asInt(-1)).isEqualTo(403);
            String approvalId = held.get("approvalRequestId").asString();
            softly.assertThat(approvalId).isNotBlank();
            softly.assertThat(held.get("message").asString())
                    .isEqualTo(held.at("/graphQlErrors/0/message").asString())
                    .startsWith("Held for approval by the gateway: approval " + approvalId)
                    .endsWith(gateway + STATUS + approvalId);
            softly.assertThat(held.get("statusUrl").asString()).isEqualTo(STATUS + approvalId);
            softly.assertThat(held.at("/extensions/code").asString()).isEqualTo("GATEWAY_APPROVAL_REQUIRED");
            softly.assertThat(held.at("/extensions/decision").asString()).isEqualTo("require_approval");
            softly.assertThat(held.get("topLevelDecision").asString()).isEqualTo("require_approval");
            softly.assertThat(audit(cases.get("deleteHeld"))).containsEntry("action", "issue.delete").containsEntry("agent_id", "dev-bot");

            JsonNode blocked = cases.at("/deleteBlocked/value");
            softly.assertThat(blocked.get("errorClass").asString()).as(blocked.toString()).isEqualTo("ForbiddenLinearError");
            softly.assertThat(blocked.get("status").asInt(-1)).isEqualTo(403);
            softly.assertThat(blocked.get("message").asString()).startsWith("Blocked by the gateway: ").contains("no deletes by the rogue bot");
            softly.assertThat(blocked.at("/extensions/code").asString()).isEqualTo("GATEWAY_BLOCKED");
            softly.assertThat(blocked.at("/extensions/auditLogId").asString()).isNotBlank();
            softly.assertThat(blocked.get("approvalRequestId").isNull()).isTrue();

            // not an agent key: the SDK's authentication error, with the gateway's text
            JsonNode wrongKey = cases.at("/wrongKey/value");
            softly.assertThat(wrongKey.get("errorClass").asString()).as(wrongKey.toString()).isEqualTo("AuthenticationLinearError");
            softly.assertThat(wrongKey.get("message").asString()).isEqualTo("Invalid or expired API key");
            softly.assertThat(wrongKey.at("/extensions/code").asString()).isEqualTo("UNAUTHORIZED");

            // only the allowed calls reached the issue tracker, with its token, never the agent's key
            List<RealApiStandIn.Request> arrived = upstream.requestsTo(base);
            softly.assertThat(arrived).hasSize(2);
            for (RealApiStandIn.Request request : arrived) {
                softly.assertThat(request.headers().get("authorization")).containsExactly("Bearer " + token);
                softly.assertThat(request.headers().toString() + request.body()).doesNotContain(ws.apiKey()).doesNotContain("issueDelete");
            }
        });
    }

    @Test
    void eachToolsProxyPathTakesTheKeyFormsOfItsOwnSdkAndOtherEndpointsOnlyBearer() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = "/keys-" + UUID.randomUUID();
        connect(ws, "code_host", Map.of("config", Map.of("access_token", token()), "base_url", upstream.baseUrl() + base + "/gh"));
        connect(ws, "issue_tracker", Map.of("config", Map.of("access_token", "lin_" + UUID.randomUUID()),
                "base_url", upstream.baseUrl() + base + "/lin"));
        connect(ws, "chat", Map.of("base_url", upstream.baseUrl() + base + "/chat"));
        String key = ws.apiKey();
        Map<String, Object> viewer = Map.of("query", "query { viewer { id } }");

        assertSoftly(softly -> {
            // scheme, tool path, expected status
            for (Object[] row : new Object[][] {
                    {"token " + key, "code_host", 200}, {"Bearer " + key, "code_host", 200}, {"TOKEN " + key, "code_host", 200},
                    {key, "code_host", 401}, {"Basic " + key, "code_host", 401},
                    {key, "issue_tracker", 200}, {"Bearer " + key, "issue_tracker", 200}, {"token " + key, "issue_tracker", 401},
                    {"Bearer " + key, "chat", 200}, {"token " + key, "chat", 401}, {key, "chat", 401},
                    {"token lin_api_other", "issue_tracker", 401}, {"lin_api_other", "issue_tracker", 401}}) {
                String authorization = (String) row[0];
                String tool = (String) row[1];
                var answer = tool.equals("issue_tracker")
                        ? client().send("POST", PROXY + tool + "/graphql", null, viewer, Map.of("Authorization", authorization))
                        : client().send("GET", PROXY + tool + "/repos/acme/api/issues", null, null, Map.of("Authorization", authorization));
                softly.assertThat(answer.status()).as(tool + " with " + authorization.replace(key, "<key>") + ": " + answer.rawBody())
                        .isEqualTo(row[2]);
            }
            // spec 5 for the other agent endpoints: Bearer only
            Map<String, Object> action = GatewayHarness.action("chat", "message.send", "low");
            for (String authorization : List.of("token " + key, key)) {
                softly.assertThat(client().send("POST", "/functions/v1/evaluate-action", null, action,
                        Map.of("Authorization", authorization)).status()).isEqualTo(401);
                softly.assertThat(client().send("GET", STATUS + UUID.randomUUID(), null, null,
                        Map.of("Authorization", authorization)).status()).isEqualTo(401);
            }
            softly.assertThat(client().send("POST", "/functions/v1/evaluate-action", key, action).status()).isEqualTo(200);
            // the agent's key, in whatever form, never went upstream
            for (RealApiStandIn.Request request : upstream.requestsTo(base)) {
                softly.assertThat(request.headers().toString() + request.body()).as(request.rawPath()).doesNotContain(key);
            }
            softly.assertThat(upstream.requestsTo(base)).hasSize(6);
        });
    }

    private static void policy(TestWorkspace ws, String name, String decision, Map<String, Object> match) {
        var created = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(),
                Map.of("name", name, "priority", 10, "decision", decision, "match", match));
        assertThat(created.status()).as(created.rawBody()).isEqualTo(201);
    }

    /** The audit row of a case's one exchange. */
    private static Map<String, String> audit(JsonNode outcome) {
        assertThat(outcome.get("exchanges")).as(outcome.toString()).hasSize(1);
        return auditRow(outcome.at("/exchanges/0/correlationId").asString());
    }
}
