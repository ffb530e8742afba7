package io.agentgateway.launcher.proxy;

import static io.agentgateway.launcher.support.ProxyTestSupport.auditRow;
import static io.agentgateway.launcher.support.ProxyTestSupport.connect;
import static io.agentgateway.launcher.support.ProxyTestSupport.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import io.agentgateway.launcher.support.ExactTargetHttp;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.ProxyUpstream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, items 1 to 4, through the real HTTP stack with the bytes clients send (a plain socket, so
 * no client library normalizes the target): the proxy classifies the canonical form of a request and
 * forwards exactly that form, or refuses a request with more than one reading; the method is the
 * request line's; the code host's GraphQL is classified by its mutations; the upstream's own URLs in
 * response headers point at the gateway. Every refusal and every block leaves the upstream untouched.
 */
class ProxyOneReadingEndToEndTest {
    private static final String AGENT_ID = "agent-12";
    private static final String PROXY = "/functions/v1/gateway-proxy/";
    private static final ProxyUpstream upstream = ProxyUpstream.start();

    @AfterAll
    static void stopUpstream() {
        upstream.close();
    }

    // --- 1. the canonical form is what is classified ----------------------------------------------------------------

    @Test
    void encodedSeparatorsAndCaseAreClassifiedAsTheCodeHostRoutesThem() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = codeHost(ws);
        // target, status under the built-in defaults (high held, critical blocked: both 403), action, risk
        List<List<Object>> rows = List.of(
                // octokit's git.deleteRef({ref: "heads/feature-x"})
                List.of("DELETE", "/repos/acme/api/git/refs/heads%2Ffeature-x", 403, "ref.delete", "critical"),
                List.of("PUT", "/repos/acme/api/pulls/7%2Fmerge", 403, "pull_request.merge", "high"),
                List.of("PUT", "/Repos/acme/api/pulls/7/merge", 403, "pull_request.merge", "high"),
                List.of("PUT", "/repos/acme/api/Pulls/7/Merge", 403, "pull_request.merge", "high"),
                List.of("DELETE", "/repos/Acme/API/contents/docs%2Fguide.md", 403, "file.delete", "critical"));
        // every row is checked (and reported) even when one fails
        assertSoftly(softly -> {
            for (List<Object> row : rows) {
                String target = (String) row.get(1);
                ExactTargetHttp.Response answer = proxy(ws, (String) row.get(0), "code_host", target, new byte[0]);
                softly.assertThat(answer.status()).as(row.get(0) + " " + target + ": " + answer.raw()).isEqualTo(row.get(2));
                Map<String, String> audit = auditRow(answer.header("X-Correlation-Id"));
                softly.assertThat(audit).as(target).containsEntry("action", (String) row.get(3))
                        .containsEntry("risk_level", (String) row.get(4));
            }
        });
        assertThat(auditRow(proxy(ws, "PUT", "code_host", "/Repos/ACME/Api/pulls/7/merge", new byte[0]).header("X-Correlation-Id")))
                .as("the repository a policy matches is the code host's, in lower case")
                .containsEntry("resource_type", "repository").containsEntry("resource_id", "acme/api");
        assertThat(upstream.requestsTo(base)).as("held and blocked calls never leave").isEmpty();
    }

    @Test
    void aRuleBasedToolMatchesItsRulesOnTheCanonicalPathInAnyCase() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = "/chat-" + UUID.randomUUID();
        connect(ws, "chat", Map.of("base_url", upstream.baseUrl() + base, "config", Map.of("rules", List.of(
                Map.of("method", "*", "path", "/admin/**", "action", "admin.call", "risk", "critical")))));
        assertSoftly(softly -> {
            for (String target : List.of("/admin%2Fusers%2F7%2Fban", "/Admin/users/7/ban", "/ADMIN%2fusers/7/ban")) {
                ExactTargetHttp.Response answer = proxy(ws, "POST", "chat", target, "{}".getBytes(StandardCharsets.UTF_8));
                softly.assertThat(answer.status()).as(target + ": " + answer.raw()).isEqualTo(403);
                softly.assertThat(auditRow(answer.header("X-Correlation-Id"))).as(target)
                        .containsEntry("action", "admin.call").containsEntry("risk_level", "critical");
            }
        });
        assertThat(upstream.requestsTo(base)).isEmpty();
    }

    @Test
    void whatIsForwardedIsTheCanonicalFormThatWasClassified() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = codeHost(ws);
        ExactTargetHttp.Response file = proxy(ws, "GET", "code_host", "/repos/acme/api/contents/docs%2fa%20b.md?ref=main&x=%2F", new byte[0]);
        assertThat(file.status()).as(file.raw()).isEqualTo(200);
        ProxyUpstream.Request arrived = upstream.requestsTo(base + "/repos/acme/api/contents").get(0);
        assertThat(arrived.rawPath()).isEqualTo(base + "/repos/acme/api/contents/docs/a%20b.md");
        assertThat(arrived.rawQuery()).as("the query is forwarded as received").isEqualTo("ref=main&x=%2F");
        assertThat(auditRow(file.header("X-Correlation-Id")).get("payload")).contains("/repos/acme/api/contents/docs/a%20b.md");

        ExactTargetHttp.Response plus = proxy(ws, "POST", "code_host", "/repos/acme/api/issues/1/labels/bug+fix", "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(plus.status()).as(plus.raw()).isEqualTo(200);
        assertThat(upstream.requestsTo(base + "/repos/acme/api/issues/1/labels").get(0).rawPath())
                .as("a + is sent encoded: no upstream reads it as a space").isEqualTo(base + "/repos/acme/api/issues/1/labels/bug%2Bfix");
    }

    @Test
    void aTargetWithMoreThanOneReadingIsRefusedWithAClearError() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = codeHost(ws);
        connect(ws, "chat", Map.of("base_url", upstream.baseUrl() + base + "/chat"));
        Map<String, String> refused = Map.of(
                "/repos/acme/api/pulls/7/merge;x=1", "The upstream path must not contain ';' path parameters",
                "/repos/acme/api/pulls/7/merge%3Bx=1", "The upstream path must not contain ';' path parameters",
                "/repos/acme/api/pulls/7%252Fmerge", "The upstream path must be percent-encoded once, not twice",
                "/repos/acme/api%5C..%5Cother/pulls/7/merge", "The upstream path must not contain backslashes",
                "/repos/acme/api/pulls/7/merge%00", "The upstream path must not contain control characters",
                "/repos/acme/api/pulls/%2e%2e/7/merge", "The upstream path must not contain '.' or '..' segments",
                "/repos/acme/api/pulls/7/%C3%28", "The upstream path is not validly percent-encoded UTF-8");
        assertSoftly(softly -> {
            refused.forEach((target, error) -> {
                ExactTargetHttp.Response answer = proxy(ws, "PUT", "code_host", target, new byte[0]);
                softly.assertThat(answer.status()).as(target + ": " + answer.raw()).isEqualTo(400);
                softly.assertThat(answer.text("error")).as(target).isEqualTo(error);
                softly.assertThat(answer.text("correlationId")).as(target).isEqualTo(answer.header("X-Correlation-Id"));
            });
            ExactTargetHttp.Response parameter = proxy(ws, "POST", "chat", "/admin;v=1/users/7/ban", new byte[0]);
            softly.assertThat(parameter.status()).as("/admin;v=1/users/7/ban: " + parameter.raw()).isEqualTo(400);
            softly.assertThat(parameter.text("error")).isEqualTo("The upstream path must not contain ';' path parameters");
        });
        assertThat(upstream.requestsTo(base)).isEmpty();
    }

    // --- 2. the method is the request line's -------------------------------------------------------------------------

    @Test
    void oddMethodsAre405AndMethodOverridesAre400WithNothingSent() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = codeHost(ws);
        byte[] body = "{\"merge_method\":\"squash\"}".getBytes(StandardCharsets.UTF_8);
        assertSoftly(softly -> {
            for (String method : List.of("TRACE", "CONNECT", "PROPFIND", "MERGE", "get")) {
                ExactTargetHttp.Response answer = proxy(ws, method, "code_host", "/repos/acme/api", new byte[0]);
                softly.assertThat(answer.status()).as(method + ": " + answer.raw()).isEqualTo(405);
                softly.assertThat(answer.header("Allow")).as(method).isEqualTo("GET,HEAD,OPTIONS,POST,PUT,PATCH,DELETE");
                softly.assertThat(answer.text("error")).as(method).isEqualTo("Method not allowed");
                softly.assertThat(answer.text("correlationId")).as(method).isEqualTo(answer.header("X-Correlation-Id"));
            }
            for (String header : List.of("X-HTTP-Method-Override", "X-Method-Override", "X-HTTP-Method", "x-http-method-override")) {
                ExactTargetHttp.Response answer = proxy(ws, "POST", "code_host", "/repos/acme/api/issues", body, header, "PUT");
                softly.assertThat(answer.status()).as(header + ": " + answer.raw()).isEqualTo(400);
                softly.assertThat(answer.text("error")).as(header).isEqualTo("The proxy does not accept the "
                        + (header.equals("x-http-method-override") ? "X-HTTP-Method-Override" : header) + " header: send the request with the method itself");
            }
            for (String query : List.of("_method=DELETE", "a=1&_METHOD=delete", "%5Fmethod=DELETE")) {
                ExactTargetHttp.Response answer = proxy(ws, "POST", "code_host", "/repos/acme/api/issues?" + query, body);
                softly.assertThat(answer.status()).as(query + ": " + answer.raw()).isEqualTo(400);
                softly.assertThat(answer.text("error")).as(query)
                        .isEqualTo("The proxy does not accept a _method query parameter: send the request with the method itself");
            }
            ExactTargetHttp.Response form = proxy(ws, "POST", "code_host", "/repos/acme/api/issues",
                    "title=x&_method=delete".getBytes(StandardCharsets.UTF_8), "Content-Type", "application/x-www-form-urlencoded");
            softly.assertThat(form.status()).as("form: " + form.raw()).isEqualTo(400);
            softly.assertThat(form.text("error"))
                    .isEqualTo("The proxy does not accept a _method form field: send the request with the method itself");
        });
        assertThat(upstream.requestsTo(base)).isEmpty();
    }

    // --- 3. the code host's GraphQL ------------------------------------------------------------------------------------

    @Test
    void theCodeHostsGraphQlIsClassifiedByItsMutations() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = codeHost(ws);
        ExactTargetHttp.Response merge = graphQl(ws, "mutation { mergePullRequest(input: {pullRequestId: \\\"PR_1\\\"}) { clientMutationId } }");
        assertThat(merge.status()).as(merge.raw()).isEqualTo(403);
        assertThat(merge.text("decision")).isEqualTo("require_approval");
        assertThat(auditRow(merge.header("X-Correlation-Id"))).containsEntry("action", "pull_request.merge").containsEntry("risk_level", "high");
        ExactTargetHttp.Response delete = graphQl(ws, "mutation Tidy { addComment(input: {}) { clientMutationId } deleteRef(input: {refId: \\\"R\\\"}) { clientMutationId } }");
        assertThat(delete.status()).as(delete.raw()).isEqualTo(403);
        assertThat(auditRow(delete.header("X-Correlation-Id"))).containsEntry("action", "ref.delete").containsEntry("risk_level", "critical");
        ExactTargetHttp.Response twice = ExactTargetHttp.send(gateway(), "POST", PROXY + "code_host/graphql",
                "{\"query\":\"query Same { viewer { login } } mutation Same { deleteRef(input: {}) { clientMutationId } }\",\"operationName\":\"Same\"}"
                        .getBytes(StandardCharsets.UTF_8), "Authorization", "Bearer " + ws.apiKey(), "Content-Type", "application/json");
        assertThat(twice.status()).isEqualTo(400);
        assertThat(twice.text("error")).isEqualTo("The GraphQL document holds two operations named Same; operation names must be unique");
        assertThat(upstream.requestsTo(base)).isEmpty();

        ExactTargetHttp.Response read = graphQl(ws, "query { viewer { login } }");
        assertThat(read.status()).as(read.raw()).isEqualTo(200);
        assertThat(auditRow(read.header("X-Correlation-Id"))).containsEntry("action", "read").containsEntry("risk_level", "low");
        assertThat(upstream.requestsTo(base)).extracting(ProxyUpstream.Request::rawPath).containsExactly(base + "/graphql");
    }

    // --- 4. follow-ups stay on the gateway ----------------------------------------------------------------------------

    @Test
    void theUpstreamsOwnUrlsInResponseHeadersPointAtTheGateway() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String base = codeHost(ws);
        String upstreamBase = upstream.baseUrl() + base;
        String gateway = GatewayHarness.gateway().baseUrl() + PROXY + "code_host";
        ExactTargetHttp.Response page = proxy(ws, "GET", "code_host", "/repos/acme/api/issues?per_page=2", new byte[0],
                "X-Test-Link", "<" + upstreamBase + "/repositories/42/issues?per_page=2&page=2>; rel=\"next\", "
                        + "<" + upstreamBase + "/repositories/42/issues?per_page=2&page=3>; rel=\"last\", "
                        + "<https://docs.example/rest>; rel=\"help\"",
                "X-Test-Location", base + "/repos/acme/api/issues/9",
                "X-Test-Content-Location", upstreamBase + "/repos/acme/api/issues?page=1");
        assertThat(page.status()).as(page.raw()).isEqualTo(200);
        assertThat(page.header("Link")).isEqualTo("<" + gateway + "/repositories/42/issues?per_page=2&page=2>; rel=\"next\", "
                + "<" + gateway + "/repositories/42/issues?per_page=2&page=3>; rel=\"last\", <https://docs.example/rest>; rel=\"help\"");
        assertThat(page.header("Location")).as("a relative Location too").isEqualTo(gateway + "/repos/acme/api/issues/9");
        assertThat(page.header("Content-Location")).isEqualTo(gateway + "/repos/acme/api/issues?page=1");
    }

    // --- helpers ---------------------------------------------------------------------------------------------------------

    /** Connects the workspace's code host to the stand-in under a fresh base path, and returns that path. */
    private static String codeHost(TestWorkspace ws) {
        String base = "/gh-" + UUID.randomUUID();
        connect(ws, "code_host", Map.of("config", Map.of("access_token", token()), "base_url", upstream.baseUrl() + base));
        return base;
    }

    private static URI gateway() {
        return URI.create(GatewayHarness.gateway().baseUrl());
    }

    private static ExactTargetHttp.Response graphQl(TestWorkspace ws, String document) {
        return proxy(ws, "POST", "code_host", "/graphql", ("{\"query\":\"" + document + "\"}").getBytes(StandardCharsets.UTF_8),
                "Content-Type", "application/json");
    }

    private static ExactTargetHttp.Response proxy(TestWorkspace ws, String method, String tool, String target, byte[] body, String... headers) {
        String[] all = new String[headers.length + 4];
        all[0] = "Authorization";
        all[1] = "Bearer " + ws.apiKey();
        all[2] = "X-Agent-Id";
        all[3] = AGENT_ID;
        System.arraycopy(headers, 0, all, 4, headers.length);
        return ExactTargetHttp.send(gateway(), method, PROXY + tool + target, body, all);
    }
}
