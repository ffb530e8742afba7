package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.ChatWebhook;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.McpGateClients;
import io.agentgateway.launcher.support.McpUpstreamServer;
import io.agentgateway.launcher.support.ProxyTestSupport;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.HeldCallSeal;
import io.agentgateway.schemas.call.HeldHttpRequest;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.secret.SecretBox;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Issue 16 item 4 through the running gateway: a held call is shown to its reviewers as what will run (method, path
 * and query; the GraphQL document and variables; the MCP tool and arguments; a bounded body excerpt and the file a
 * contents write would write), secrets and credentials redacted, with the digest that binds the approval to the
 * sealed call, in the approvals API (list and single), the agent's status endpoint, the audit entry and the
 * reviewers' email and chat message.
 */
class ApprovalViewEndToEndTest {
    private static final McpUpstreamServer UPSTREAM = McpUpstreamServer.start();

    @org.junit.jupiter.api.AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    private static final Duration PROJECTED = Duration.ofSeconds(20);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String GHP = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCbA9";
    private static final String SLACK = "xoxb-" + "111122223333-444455556666-AbCdEfGhIjKlMnOp";

    @RegisterExtension
    final ChatWebhook chat = new ChatWebhook("/hooks/views");

    @Test
    void aHeldWorkflowFileWriteShowsTheFileItWouldWriteEverywhereAReviewerLooksWithoutItsSecrets() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, "code_host", Map.of("config", Map.of("access_token", "ghp_" + "tool0token0never0shown0000000000000"),
                "base_url", GatewayHarness.upstream().baseUrl() + "/gh"));
        chat.notifyEmailAndChatOf(ws);

        String workflow = "name: deploy\non: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n"
                + "      - run: ./deploy.sh --token " + GHP + "\n";
        String body = GatewayJson.MAPPER.writeValueAsString(Map.of("message", "ci: deploy on every push", "branch", "main",
                "content", Base64.getEncoder().encodeToString(workflow.getBytes(StandardCharsets.UTF_8))));
        HttpResponse<String> held = proxy(ws, "PUT", "code_host", "/repos/acme/app/contents/.github/workflows/deploy.yml?ref=main",
                body, "application/json");
        String approvalId = approvalIdOf(held);

        JsonNode approval = approval(ws, approvalId);
        JsonNode view = approval.get("callView");
        assertThat(view.get("method").asString()).isEqualTo("PUT");
        assertThat(view.get("path").asString()).isEqualTo("/repos/acme/app/contents/.github/workflows/deploy.yml");
        assertThat(view.get("query").asString()).isEqualTo("ref=main");
        assertThat(view.get("fileContent").asString()).contains("name: deploy", "on: push", "run: ./deploy.sh --token [redacted]");
        assertThat(view.get("bodyExcerpt").asString()).contains("ci: deploy on every push");
        assertThat(view.get("redacted").booleanValue()).isTrue();
        assertThat(approval.toString()).doesNotContain(GHP).doesNotContain("tool0token0never0shown");

        // the digest shown is the one the sealed call opens with: the view names exactly what will run
        String digest = approval.get("callDigest").asString();
        HeldHttpRequest sealed = (HeldHttpRequest) openHeldCall(approvalId, Tool.CODE_HOST, "file.write", digest);
        assertThat(new String(sealed.body(), StandardCharsets.UTF_8)).isEqualTo(body);
        assertThat(sealed.path()).isEqualTo(view.get("path").asString());

        // the list shows it the same way, and the agent's status endpoint too
        JsonNode listed = await().atMost(PROJECTED).until(() -> pending(ws, approvalId), item -> item != null);
        assertThat(listed.get("callView")).isEqualTo(view);
        assertThat(listed.get("callDigest").asString()).isEqualTo(digest);
        var status = client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null);
        assertThat(status.status()).isEqualTo(200);
        assertThat(status.body().get("callView")).isEqualTo(view);
        assertThat(status.body().get("callDigest").asString()).isEqualTo(digest);

        // the audit entry shows the call too (no longer only method, path and query)
        assertThat(ProxyTestSupport.auditRow(held.headers().firstValue("X-Correlation-Id").orElseThrow()).get("payload"))
                .contains("/repos/acme/app/contents/.github/workflows/deploy.yml", "run: ./deploy.sh").doesNotContain(GHP);

        // the reviewers' email and chat message
        await().atMost(PROJECTED).untilAsserted(() -> {
            assertThat(mailTo(ws.ownerEmail())).hasSize(1);
            assertThat(chat.bodies()).hasSize(1);
        });
        String mail = mailTo(ws.ownerEmail()).get(0).getContent().toString().replace("\r\n", "\n");
        assertThat(mail).contains("What will run", "Request: PUT /repos/acme/app/contents/.github/workflows/deploy.yml?ref=main",
                "File content:", "run: ./deploy.sh --token [redacted]", "Call digest: " + digest).doesNotContain(GHP);
        assertThat(chat.bodies().get(0)).contains("What will run", "deploy.sh", digest).doesNotContain(GHP);
    }

    @Test
    void aHeldIssueDeleteShowsItsDocumentAndVariables() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        connect(ws, "issue_tracker", Map.of("config", Map.of("access_token", "lin_oauth_tool_token"),
                "base_url", GatewayHarness.upstream().baseUrl() + "/lin"));
        String document = "mutation IssueDelete($id: String!) { issueDelete(id: $id) { success } }";
        String body = GatewayJson.MAPPER.writeValueAsString(Map.of("query", document, "operationName", "IssueDelete",
                "variables", Map.of("id", "ISS-42")));
        HttpResponse<String> held = proxy(ws, "POST", "issue_tracker", "/graphql", body, "application/json");
        String approvalId = approvalIdOf(held);

        JsonNode approval = approval(ws, approvalId);
        JsonNode view = approval.get("callView");
        assertThat(approval.get("action").asString()).isEqualTo("issue.delete");
        assertThat(view.get("method").asString()).isEqualTo("POST");
        assertThat(view.get("path").asString()).isEqualTo("/graphql");
        assertThat(view.get("graphqlOperation").asString()).isEqualTo("IssueDelete");
        assertThat(view.get("graphqlDocument").asString()).isEqualTo(document);
        assertThat(view.get("graphqlVariables").asString()).isEqualTo("{\"id\":\"ISS-42\"}");
        openHeldCall(approvalId, Tool.ISSUE_TRACKER, "issue.delete", approval.get("callDigest").asString());

        var status = client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null);
        assertThat(status.body().at("/callView/graphqlVariables").asString()).isEqualTo("{\"id\":\"ISS-42\"}");
        // the audit payload names which issue goes
        assertThat(ProxyTestSupport.auditRow(held.headers().firstValue("X-Correlation-Id").orElseThrow()).get("payload"))
                .contains("issueDelete", "ISS-42");
    }

    @Test
    void aHeldMcpToolCallShowsTheToolAndItsArgumentsWithCredentialsRedacted() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        // a held call never reaches the upstream's tool, but the gate opens no approval for an upstream it cannot
        // reach (issue 15): a real SDK upstream
        McpGateClients.connect(ws, UPSTREAM.streamableUrl(), "http", "bearer", "t");
        String call = """
                {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"delete_repo","arguments":
                {"repo":"acme/app","confirm":true,"token":"%s","note":"ping me with %s"}}}""".formatted(GHP, SLACK);
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl()
                        + "/functions/v1/mcp-gate/sse"))
                .header("Authorization", "Bearer " + ws.apiKey()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(call)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        String approvalId = approvalIdOf(answer);

        JsonNode view = approval(ws, approvalId).get("callView");
        assertThat(view.get("mcpTool").asString()).isEqualTo("delete_repo");
        assertThat(view.get("mcpArguments").asString()).contains("\"repo\":\"acme/app\"", "\"confirm\":true",
                "\"token\":\"[redacted]\"", "ping me with [redacted]").doesNotContain(GHP).doesNotContain(SLACK);
        var status = client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null);
        assertThat(status.body().at("/callView/mcpTool").asString()).isEqualTo("delete_repo");
        assertThat(status.rawBody()).doesNotContain(GHP).doesNotContain(SLACK);
    }

    // --- helpers ---

    private static HttpResponse<String> proxy(TestWorkspace ws, String method, String tool, String pathAndQuery, String body,
                                              String contentType) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + "/functions/v1/gateway-proxy/"
                                + tool + pathAndQuery))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + ws.apiKey())
                        .header("X-Agent-Id", "release-bot")
                        .header("Content-Type", contentType)
                        .method(method, HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The approval id of a held answer, wherever the answer's dialect puts it. */
    private static String approvalIdOf(HttpResponse<String> answer) {
        JsonNode id = GatewayJson.MAPPER.readTree(answer.body()).findValue("approvalRequestId");
        assertThat(id).as(answer.statusCode() + " " + answer.body()).isNotNull();
        return id.asString();
    }

    /** {@code GET …/approvals/{id}} once the projector wrote it. */
    private static JsonNode approval(TestWorkspace ws, String approvalId) {
        var got = await().atMost(PROJECTED).until(() -> client().send("GET",
                "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId, ws.ownerJwt(), null), r -> r.status() == 200);
        assertThat(got.body().get("ok").booleanValue()).isTrue();
        assertThat(got.body().get("id").asString()).isEqualTo(approvalId);
        assertThat(got.body().get("callDigest").asString()).matches("[0-9a-f]{64}");
        return got.body();
    }

    private static JsonNode pending(TestWorkspace ws, String approvalId) {
        var list = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/approvals?status=pending", ws.ownerJwt(), null);
        for (JsonNode item : list.body().get("items")) {
            if (approvalId.equals(item.get("id").asString())) {
                return item;
            }
        }
        return null;
    }

    /** Opens the sealed call of the approval only if {@code digest} is its digest (what the executor does). */
    private static Object openHeldCall(String approvalId, Tool tool, String action, String digest) throws Exception {
        try (var c = GatewayHarness.db(); var s = c.prepareStatement(
                "select held_call_kind, sealed_held_call from approval_requests where id = ?::uuid")) {
            s.setString(1, approvalId);
            var rs = s.executeQuery();
            assertThat(rs.next()).isTrue();
            SealedHeldCall sealed = new SealedHeldCall(HeldCallKind.parse(rs.getString(1)).orElseThrow(), rs.getString(2), digest);
            return new HeldCallSeal(SecretBox.fromBase64Key(GatewayHarness.gateway().secrets().secretsKey()))
                    .open(sealed, tool, action, digest);
        }
    }

    private static void connect(TestWorkspace ws, String tool, Map<String, Object> body) {
        ProxyTestSupport.connect(ws, tool, body);
    }

    private static List<MimeMessage> mailTo(String address) {
        return Arrays.stream(GatewayHarness.smtp().getReceivedMessages()).filter(m -> {
            try {
                return Arrays.stream(m.getRecipients(Message.RecipientType.TO)).anyMatch(a -> a.toString().contains(address));
            } catch (MessagingException e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }
}
