package io.agentgateway.launcher.policies;

import static io.agentgateway.launcher.policies.ConditionalPoliciesEndToEndTest.createPolicy;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Policy conditions on proxied calls, through the client libraries agents use ({@code @octokit/rest},
 * {@code @linear/sdk}, {@link RealClients}): a workflow file written under every spelling is blocked or refused,
 * never allowed; a merge is held or allowed by the base branch the gateway looks up with the workspace's connection
 * (a lookup that fails holds it); an issue delete is blocked unless the issue's labels, looked up the same way, carry
 * the label. What reaches the upstream: only the lookups and the allowed calls.
 */
class ConditionalProxyEndToEndTest {
    private static final String PROXY = "/functions/v1/gateway-proxy/";
    private static final ConditionFactsUpstream UPSTREAM = ConditionFactsUpstream.start();

    @AfterAll
    static void stop() {
        UPSTREAM.close();
    }

    private static void allowByDefault(TestWorkspace ws) {
        var defaults = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/defaults", ws.ownerJwt(),
                Map.of("decisions", Map.of("medium", "allow", "high", "allow", "critical", "allow")));
        assertThat(defaults.status()).as(defaults.rawBody()).isIn(200, 204);
    }

    /** The proxy looks facts up only for a workspace whose read model shows a condition on target: wait until it does. */
    private static void awaitProjected(TestWorkspace ws, int policies) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> client()
                .send("GET", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), null).body().get("items").size() == policies);
    }

    @Test
    void octokitWorkflowWritesAndMergesAreDecidedByTheirTargetAndTheLookedUpBaseBranch() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        allowByDefault(ws);
        createPolicy(ws, "no workflow edits", 1, "block", Map.of("tools", List.of("code_host"), "actions", List.of("file.write")),
                "target.path.startsWith('.github/workflows/')");
        createPolicy(ws, "hold merges into main", 2, "require_approval",
                Map.of("tools", List.of("code_host"), "actions", List.of("pull_request.merge")),
                "target.repository in ['acme/api'] && target.branch == 'main'");
        awaitProjected(ws, 2);
        String base = "/gh-" + UUID.randomUUID();
        connect(ws, "code_host", Map.of("config", Map.of("access_token", token()), "base_url", UPSTREAM.baseUrl() + base));

        JsonNode cases = RealClients.run("octokit-conditions.mjs", Map.of("proxyBaseUrl",
                GatewayHarness.gateway().baseUrl() + PROXY + "code_host", "apiKey", ws.apiKey(), "agentId", "conditions-agent"));

        assertSoftly(softly -> {
            for (String name : List.of("writeWorkflow", "writeWorkflowUpperCase")) {
                softly.assertThat(cases.at("/" + name + "/status").asInt(-1)).as(name + ": " + cases.get(name)).isEqualTo(403);
                softly.assertThat(cases.at("/" + name + "/body/decision").asString()).as(name).isEqualTo("block");
            }
            // refused before any decision (one reading of the path) or blocked: never allowed
            for (String name : List.of("writeWorkflowDotSegment", "writeWorkflowDoubleSlash", "writeWorkflowEncodedDot",
                    "writeWorkflowRawDotSegment", "writeWorkflowRawEncodedDot")) {
                softly.assertThat(cases.at("/" + name + "/ok").booleanValue()).as(name + ": " + cases.get(name)).isFalse();
                softly.assertThat(cases.at("/" + name + "/status").asInt(-1)).as(name + ": " + cases.get(name)).isIn(400, 403);
            }
            softly.assertThat(cases.at("/writeSource/value/status").asInt(-1)).as(cases.get("writeSource").toString()).isEqualTo(201);

            softly.assertThat(cases.at("/mergeIntoMain/status").asInt(-1)).as(cases.get("mergeIntoMain").toString()).isEqualTo(403);
            softly.assertThat(cases.at("/mergeIntoMain/body/decision").asString()).isEqualTo("require_approval");
            softly.assertThat(cases.at("/mergeIntoRefsHeadsMain/body/decision").asString())
                    .as(cases.get("mergeIntoRefsHeadsMain").toString()).isEqualTo("require_approval");
            softly.assertThat(cases.at("/mergeWhoseBaseCannotBeLookedUp/body/decision").asString())
                    .as("fail closed: " + cases.get("mergeWhoseBaseCannotBeLookedUp")).isEqualTo("require_approval");
            softly.assertThat(cases.at("/mergeIntoRelease/value/status").asInt(-1)).as(cases.get("mergeIntoRelease").toString())
                    .isEqualTo(200);
            softly.assertThat(cases.at("/mergeInAnotherRepository/value/status").asInt(-1))
                    .as(cases.get("mergeInAnotherRepository").toString()).isEqualTo(200);
            Map<String, String> held = auditRow(cases.at("/mergeWhoseBaseCannotBeLookedUp/exchanges/0/correlationId").asString());
            softly.assertThat(held).containsEntry("action", "pull_request.merge").containsEntry("decision", "require_approval");
        });
        // upstream: the lookups (GET pulls/N) and the allowed calls only
        List<String> arrived = UPSTREAM.requestsTo(base).stream().map(r -> r.method() + " " + r.path().substring(base.length())).toList();
        assertThat(arrived).containsExactlyInAnyOrder(
                "PUT /repos/acme/api/contents/src/app.py",
                "GET /repos/acme/api/pulls/1", "GET /repos/acme/api/pulls/2", "PUT /repos/acme/api/pulls/2/merge",
                "GET /repos/acme/api/pulls/3", "GET /repos/acme/api/pulls/4",
                "GET /repos/acme/docs/pulls/1", "PUT /repos/acme/docs/pulls/1/merge");
    }

    @Test
    void theLinearSdksIssueDeleteIsBlockedUnlessTheLookedUpLabelsCarryTheLabel() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        allowByDefault(ws);
        createPolicy(ws, "keep unlabelled issues", 1, "block",
                Map.of("tools", List.of("issue_tracker"), "actions", List.of("issue.delete")), "!('deletable' in target.labels)");
        awaitProjected(ws, 1);
        String base = "/lin-" + UUID.randomUUID();
        connect(ws, "issue_tracker", Map.of("config", Map.of("access_token", "lin_oauth_" + UUID.randomUUID()),
                "base_url", UPSTREAM.baseUrl() + base));

        JsonNode cases = RealClients.run("linear-conditions.mjs", Map.of("proxyBaseUrl",
                GatewayHarness.gateway().baseUrl() + PROXY + "issue_tracker", "apiKey", ws.apiKey(), "agentId", "conditions-agent"));

        assertThat(cases.at("/deleteLabelled/value/success").asBoolean(false)).as(cases.get("deleteLabelled").toString()).isTrue();
        for (String name : List.of("deleteUnlabelled", "deleteWhoseLabelsCannotBeLookedUp")) {
            assertThat(cases.at("/" + name + "/ok").booleanValue()).as(name + ": " + cases.get(name)).isFalse();
            assertThat(cases.at("/" + name + "/status").asInt(-1)).as(name + ": " + cases.get(name)).isEqualTo(403);
            assertThat(cases.at("/" + name + "/body/decision").asString()).as(name).isEqualTo("block");
        }
        // upstream: three lookups, one delete
        List<ConditionFactsUpstream.Request> arrived = UPSTREAM.requestsTo(base);
        assertThat(arrived.stream().filter(r -> r.body().contains("GatewayPolicyFacts"))).hasSize(3);
        assertThat(arrived.stream().filter(r -> r.body().contains("issueDelete"))).singleElement()
                .satisfies(r -> assertThat(r.body()).contains("ISS-DELETABLE"));
    }
}
