package io.agentgateway.launcher.proxy;

import static io.agentgateway.launcher.support.ProxyTestSupport.auditRow;
import static io.agentgateway.launcher.support.ProxyTestSupport.connect;
import static io.agentgateway.launcher.support.ProxyTestSupport.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.RealClients;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Issue 12 through the client libraries agents really use, from npm ({@link RealClients}): {@code @octokit/rest}
 * and {@code @linear/sdk} pointed at the gateway's proxy, with {@link RealApiStandIn} as the code host and the
 * issue tracker behind it. Each scenario group is one node process; the assertions read what the library
 * returned or threw, every HTTP exchange it sent, the audit rows, and what reached the upstream.
 *
 * <p>octokit sends the key with its default {@code auth} ({@code token agk_…}); the Linear SDK here as its access
 * token ({@code Bearer agk_…}; {@link RealClientSurfaceTest} uses its {@code apiKey}). Held calls are answered 403
 * (issue 16), so both libraries throw.
 */
class RealClientProxyTest {
    private static final String PROXY = "/functions/v1/gateway-proxy/";
    private static final String AGENT_ID = "real-client-agent";
    @RegisterExtension
    static final RealApiStandIn upstream = RealApiStandIn.start();

    @Test
    void octokitIsClassifiedByWhatTheCodeHostWillRunAndPaginatesThroughTheGateway() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = "/gh-" + UUID.randomUUID();
        String token = token();
        connect(ws, "code_host", Map.of("config", Map.of("access_token", token), "base_url", upstream.baseUrl() + base));
        String proxyBase = GatewayHarness.gateway().baseUrl() + PROXY + "code_host";

        JsonNode cases = RealClients.run("octokit.mjs", Map.of("proxyBaseUrl", proxyBase, "apiKey", ws.apiKey(), "agentId", AGENT_ID));

        // every case is checked (and reported) even when one fails
        assertSoftly(softly -> {
            // 1. octokit's git.deleteRef sends heads%2Ffeature-x: the spec's ref.delete row, critical, blocked
            assertRefused(softly, cases, "deleteRef", 403, "ref.delete", "critical");
            softly.assertThat(cases.at("/deleteRef/body/decision").asString()).isEqualTo("block");
            // an encoded slash and the code host's case-insensitive routes: the merge row, held for approval
            for (String name : List.of("mergeEncoded", "mergeCapitalRepos", "mergeCapitalPulls")) {
                JsonNode merge = cases.get(name);
                softly.assertThat(merge.at("/status").asInt(-1)).as(name + ": " + merge).isEqualTo(403);
                softly.assertThat(merge.at("/body/decision").asString()).as(name).isEqualTo("require_approval");
                softly.assertThat(audit(merge)).as(name).containsEntry("action", "pull_request.merge").containsEntry("risk_level", "high");
            }
            // no single reading: refused before any decision
            softly.assertThat(cases.at("/mergePathParameter/status").asInt(-1)).as(cases.get("mergePathParameter").toString())
                    .isEqualTo(400);
            softly.assertThat(cases.at("/mergePathParameter/body/error").asString())
                    .isEqualTo("The upstream path must not contain ';' path parameters");
            softly.assertThat(cases.at("/methodOverride/status").asInt(-1)).as(cases.get("methodOverride").toString()).isEqualTo(400);
            softly.assertThat(cases.at("/methodOverride/body/error").asString()).contains("X-HTTP-Method-Override");

            // 3. the code host's GraphQL: classified by its mutations, as the REST rows are
            softly.assertThat(cases.at("/graphqlMerge/exchanges/0/status").asInt(-1)).as(cases.get("graphqlMerge").toString())
                    .isEqualTo(403);
            softly.assertThat(cases.at("/graphqlMerge/body/decision").asString()).isEqualTo("require_approval");
            softly.assertThat(audit(cases.get("graphqlMerge"))).containsEntry("action", "pull_request.merge")
                    .containsEntry("risk_level", "high");
            assertRefused(softly, cases, "graphqlDeleteRef", 403, "ref.delete", "critical");
            softly.assertThat(cases.at("/graphqlViewer/value/viewer/login").asString()).as(cases.get("graphqlViewer").toString())
                    .isEqualTo("octocat");
            softly.assertThat(audit(cases.get("graphqlViewer"))).containsEntry("action", "read").containsEntry("risk_level", "low");

            // what is allowed still works as the library expects
            softly.assertThat(cases.at("/createIssue/value/status").asInt(-1)).as(cases.get("createIssue").toString()).isEqualTo(201);
            softly.assertThat(audit(cases.get("createIssue"))).containsEntry("action", "issues.create");

            // 4. octokit.paginate follows the Link header: every page through the gateway, decided and audited
            JsonNode paginate = cases.get("paginate");
            softly.assertThat(paginate.get("value").toString()).as(paginate.toString()).isEqualTo("[1,2,3,4,5]");
            softly.assertThat(paginate.get("exchanges")).hasSize(3);
            for (JsonNode exchange : paginate.get("exchanges")) {
                String url = exchange.get("url").asString();
                softly.assertThat(url).as("every page is asked of the gateway").startsWith(proxyBase + "/");
                softly.assertThat(exchange.get("status").asInt(-1)).isEqualTo(200);
                if (url.startsWith(proxyBase + "/")) {
                    softly.assertThat(auditRow(exchange.get("correlationId").asString()))
                            .containsEntry("action", "read").containsEntry("agent_id", AGENT_ID).containsEntry("decision", "allow");
                }
            }
            softly.assertThat(upstream.requestsTo(base).stream().filter(r -> r.rawPath().endsWith("/issues") && r.method().equals("GET")))
                    .extracting(RealApiStandIn.Request::rawPath)
                    .containsExactly(base + "/repos/acme/api/issues", base + "/repositories/42/issues", base + "/repositories/42/issues");

            // what reached the upstream: only allowed calls, only with the tool's credential, never the agent's
            List<String> arrived = new ArrayList<>();
            for (RealApiStandIn.Request request : upstream.requestsTo(base)) {
                String call = request.method() + " " + request.rawPath() + (request.rawQuery() == null ? "" : "?" + request.rawQuery());
                arrived.add(request.method() + " " + request.rawPath());
                softly.assertThat(request.headers().get("authorization")).as(call).containsExactly("token " + token);
                softly.assertThat(request.headers()).as(call).doesNotContainKey("x-agent-id");
                softly.assertThat(request.headers().toString() + request.rawQuery() + request.body()).as(call).doesNotContain(ws.apiKey());
            }
            softly.assertThat(arrived).containsExactlyInAnyOrder("POST " + base + "/repos/acme/api/issues", "POST " + base + "/graphql",
                    "GET " + base + "/repos/acme/api/issues", "GET " + base + "/repositories/42/issues",
                    "GET " + base + "/repositories/42/issues");
        });
    }

    @Test
    void theLinearSdkIsClassifiedByItsGraphQlOperations() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = "/lin-" + UUID.randomUUID();
        String token = "lin_oauth_" + UUID.randomUUID();
        connect(ws, "issue_tracker", Map.of("config", Map.of("access_token", token), "base_url", upstream.baseUrl() + base));

        JsonNode cases = RealClients.run("linear.mjs", Map.of("proxyBaseUrl", GatewayHarness.gateway().baseUrl() + PROXY + "issue_tracker",
                "apiKey", ws.apiKey(), "agentId", AGENT_ID));

        assertThat(cases.at("/viewer/value/id").asString()).as(cases.get("viewer").toString()).isEqualTo("user-1");
        assertThat(audit(cases.get("viewer"))).containsEntry("action", "read").containsEntry("risk_level", "low");
        assertThat(cases.at("/createIssue/value/success").booleanValue()).as(cases.get("createIssue").toString()).isTrue();
        assertThat(audit(cases.get("createIssue"))).containsEntry("action", "issue.create").containsEntry("risk_level", "medium");
        // held: the SDK throws on the gateway's 403 answer (its GraphQL errors) instead of GraphQL data
        assertThat(cases.at("/deleteIssue/ok").booleanValue()).isFalse();
        assertThat(cases.at("/deleteIssue/status").asInt(-1)).as(cases.get("deleteIssue").toString()).isEqualTo(403);
        assertThat(cases.at("/deleteIssue/body/decision").asString()).isEqualTo("require_approval");
        assertThat(audit(cases.get("deleteIssue"))).containsEntry("action", "issue.delete").containsEntry("risk_level", "high");
        assertThat(cases.at("/ambiguousDocument/status").asInt(-1)).isEqualTo(400);
        assertThat(cases.at("/ambiguousDocument/body/error").asString())
                .isEqualTo("The GraphQL document holds two operations named Same; operation names must be unique");

        List<RealApiStandIn.Request> arrived = upstream.requestsTo(base);
        assertThat(arrived).hasSize(2);
        assertThat(arrived).allSatisfy(request -> {
            assertThat(request.rawPath()).isEqualTo(base + "/graphql");
            assertThat(request.headers().get("authorization")).containsExactly("Bearer " + token);
            assertThat(request.headers()).doesNotContainKey("x-agent-id");
            assertThat(request.body()).doesNotContain("issueDelete");
        });
    }

    private static void assertRefused(SoftAssertions softly, JsonNode cases, String name, int status, String action, String risk) {
        JsonNode outcome = cases.get(name);
        softly.assertThat(outcome.get("ok").booleanValue()).as(name + ": " + outcome).isFalse();
        softly.assertThat(outcome.path("status").asInt(-1)).as(name + ": " + outcome).isEqualTo(status);
        softly.assertThat(audit(outcome)).as(name).containsEntry("action", action).containsEntry("risk_level", risk);
    }

    /** The audit row of a case's one exchange. */
    private static Map<String, String> audit(JsonNode outcome) {
        assertThat(outcome.get("exchanges")).as(outcome.toString()).hasSize(1);
        return auditRow(outcome.at("/exchanges/0/correlationId").asString());
    }
}
