package io.agentgateway.adminapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.secret.ConfiguredSecretBox;
import io.agentgateway.httpedge.secret.SecretsProperties;
import io.agentgateway.ingresstestsupport.DecisionResponder;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.ingresstestsupport.TestTokens;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.SecretChange;
import io.agentgateway.schemas.SecretUpdate;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;

/**
 * The tool settings API: writes validated here and sent as commands with their secrets sealed, reads
 * from the projected tool_connections with write-only secrets shown as flags.
 */
class ToolConnectionAdminTest {
    private static final String TOKEN = "ghp_theAccessTokenThatMustNeverBeShown";
    private static final String WEBHOOK_SECRET = "a-webhook-secret-the-admin-chose";
    private static final RunningIngress ingress = SharedIngress.ingress();
    private static final DecisionResponder responder = SharedIngress.responder();
    private final SecretBox box = SecretBox.fromBase64Key(RunningIngress.SECRETS_KEY);
    private UUID workspace;
    private String base;
    private String owner;

    @BeforeEach
    void workspaceWithOwner() {
        workspace = ingress.rows.workspace("tools");
        base = "/admin/v1/workspaces/" + workspace + "/tools";
        ingress.rows.member(workspace, "owner-" + workspace, "owner");
        owner = TestTokens.user("owner-" + workspace);
        responder.answer(workspace.toString(), DecisionResponder::ok);
    }

    private CommandEnvelope onlyCommand() {
        List<CommandEnvelope> received = responder.received(workspace.toString());
        assertThat(received).hasSize(1);
        return received.get(0);
    }

    private TestHttp.Response put(String tool, String body) {
        return ingress.http.put(base + "/" + tool).bearer(owner).body(body).send();
    }

    @Test
    void aPutSendsTheConnectionWithItsSecretsSealed() {
        TestHttp.Response response = put("code_host", """
                {"config":{"access_token":"%s","repos":["acme/api","acme/web"],"org":"acme"},
                 "webhook_secret":"%s","base_url":"https://code.example/api/v3"}""".formatted(TOKEN, WEBHOOK_SECRET));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("tool").asString()).isEqualTo("code_host");
        assertThat(response.text()).doesNotContain(TOKEN).doesNotContain(WEBHOOK_SECRET);
        CommandEnvelope envelope = onlyCommand();
        UpsertToolConnection command = (UpsertToolConnection) envelope.command();
        assertThat(command.tool()).isEqualTo(Tool.CODE_HOST);
        assertThat(command.config()).isEqualTo(new ToolConnectionConfig(List.of("acme/api", "acme/web"), "acme", null, null));
        assertThat(command.baseUrl()).isEqualTo("https://code.example/api/v3");
        assertThat(command.accessToken().change()).isEqualTo(SecretChange.SET);
        assertThat(box.open(command.accessToken().sealed().value())).isEqualTo(TOKEN);
        assertThat(box.open(command.webhookSecret().sealed().value())).isEqualTo(WEBHOOK_SECRET);
        // what travelled on the commands topic, and what a log line of the command would show
        String onTheWire = GatewayJson.MAPPER.writeValueAsString(envelope);
        assertThat(onTheWire).doesNotContain(TOKEN).doesNotContain(WEBHOOK_SECRET);
        assertThat(envelope.toString()).doesNotContain(TOKEN).doesNotContain(WEBHOOK_SECRET)
                .doesNotContain(command.accessToken().sealed().value());
    }

    @Test
    void absentSecretsAreKeptAndNullOnesCleared() {
        put("issue_tracker", "{\"config\":{\"organization_id\":\"org-1\",\"team_id\":\"team-1\"}}");
        put("issue_tracker", "{\"config\":{\"access_token\":null},\"webhook_secret\":null}");

        List<CommandEnvelope> received = responder.received(workspace.toString());
        assertThat(received).extracting(e -> (UpsertToolConnection) e.command()).satisfiesExactly(
                keep -> {
                    assertThat(keep.accessToken()).isEqualTo(SecretUpdate.keep());
                    assertThat(keep.webhookSecret()).isEqualTo(SecretUpdate.keep());
                    assertThat(keep.config()).isEqualTo(new ToolConnectionConfig(List.of(), null, "org-1", "team-1"));
                },
                clear -> {
                    assertThat(clear.accessToken()).isEqualTo(SecretUpdate.clear());
                    assertThat(clear.webhookSecret()).isEqualTo(SecretUpdate.clear());
                });
    }

    @Test
    void mcpFieldsTravelAsGiven() {
        put("mcp", "{\"mcp_server_url\":\"https://mcp.example/sse\",\"mcp_auth_type\":\"token\",\"mcp_transport\":\"sse\",\"tool\":\"mcp\"}");

        UpsertToolConnection command = (UpsertToolConnection) onlyCommand().command();
        assertThat(command.mcpServerUrl()).isEqualTo("https://mcp.example/sse");
        assertThat(command.mcpAuthType()).isEqualTo(McpAuthType.TOKEN);
        assertThat(command.mcpTransport()).isEqualTo(McpTransport.SSE);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"paused":true}                                     | paused is read-only: use the kill switch (pause_tool / resume_tool)
            {"colour":"red"}                                    | unknown field: colour
            {"config":{"repo":["a/b"]}}                         | unknown field: config.repo
            {"config":[]}                                       | config must be an object
            {"config":{"repos":"acme/api"}}                     | config.repos must be an array of strings
            {"config":{"repos":[1]}}                            | config.repos must be an array of strings
            {"config":{"org":7}}                                | config.org must be a string
            {"config":{"access_token":""}}                      | config.access_token must be a non-empty string, or null to remove it
            {"config":{"access_token":42}}                      | config.access_token must be a non-empty string, or null to remove it
            {"config":{"access_token":"tok "}}                  | config.access_token must not start or end with whitespace
            {"webhook_secret":" "}                              | webhook_secret must be a non-empty string, or null to remove it
            {"mcp_auth_type":"basic"}                           | mcp_auth_type must be one of: bearer, token
            {"mcp_transport":"stdio"}                           | mcp_transport must be one of: sse, http
            {"base_url":false}                                  | base_url must be a string
            {"tool":"docs"}                                     | tool must equal the tool of the path
            """)
    void badBodiesAre400AndSendNothing(String body, String error) {
        TestHttp.Response response = put("code_host", body);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo(error);
        assertThat(responder.received(workspace.toString())).isEmpty();
    }

    @Test
    void rulesTravelInOrderForChatDocsAndInternalApis() {
        put("chat", """
                {"config":{"rules":[{"method":"POST","path":"/channels/*/messages","action":"message.send","risk":"low"},
                                    {"method":"*","path":"/admin/**","action":"admin.call","risk":"critical"}]}}""");

        UpsertToolConnection command = (UpsertToolConnection) onlyCommand().command();
        assertThat(command.config().rules()).containsExactly(
                new ClassificationRule("POST", "/channels/*/messages", "message.send", RiskLevel.LOW),
                new ClassificationRule("*", "/admin/**", "admin.call", RiskLevel.CRITICAL));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            code_host     | {"config":{"rules":[]}}                                                          | -
            code_host     | {"config":{"rules":[{"method":"GET","path":"/x","action":"read","risk":"low"}]}} | config.rules is only for the chat, docs and internal_api tools; code_host requests are classified by the spec's fixed tables
            issue_tracker | {"config":{"rules":[{"method":"GET","path":"/x","action":"read","risk":"low"}]}} | config.rules is only for the chat, docs and internal_api tools; issue_tracker requests are classified by the spec's fixed tables
            mcp           | {"config":{"rules":[{"method":"GET","path":"/x","action":"read","risk":"low"}]}} | config.rules is only for the chat, docs and internal_api tools; mcp requests are classified by the spec's fixed tables
            chat          | {"config":{"rules":{}}}                                                          | config.rules must be an array of {method, path, action, risk} objects
            chat          | {"config":{"rules":["POST /x"]}}                                                 | config.rules[0] must be an object with method, path, action and risk
            chat          | {"config":{"rules":[{"method":"GET","path":"/x","action":"read","risk":"low","why":1}]}} | unknown field: config.rules[0].why
            chat          | {"config":{"rules":[{"method":"FETCH","path":"/x","action":"read","risk":"low"}]}} | config.rules[0].method must be one of: *, GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS
            chat          | {"config":{"rules":[{"method":"GET","path":"x","action":"read","risk":"low"}]}}   | config.rules[0].path must start with / and consist of literal segments, * (one segment) and a final ** (any further segments), at most 512 characters
            docs          | {"config":{"rules":[{"method":"GET","path":"/**/x","action":"read","risk":"low"}]}} | config.rules[0].path may use ** only as its last segment
            docs          | {"config":{"rules":[{"method":"GET","path":7,"action":"read","risk":"low"}]}}    | config.rules[0].path must be a string
            internal_api  | {"config":{"rules":[{"method":"GET","path":"/x","action":"Read It","risk":"low"}]}} | config.rules[0].action must be dot-separated words of a-z, 0-9, '_' and '-' (e.g. message.send), at most 100 characters
            internal_api  | {"config":{"rules":[{"method":"GET","path":"/x","action":"read","risk":"severe"}]}} | config.rules[0].risk must be one of: low, medium, high, critical
            internal_api  | {"config":{"rules":[{"method":"GET","path":"/x","action":"read"}]}}              | config.rules[0].risk must be one of: low, medium, high, critical
            """)
    void badRulesAre400AndSendNothing(String tool, String body, String error) {
        TestHttp.Response response = put(tool, body);

        if (error.equals("-")) {
            // an empty list is no rule at all, so every tool may send it
            assertThat(response.status()).isEqualTo(200);
            return;
        }
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo(error);
        assertThat(responder.received(workspace.toString())).isEmpty();
    }

    @Test
    void moreThanAHundredRulesAre400() {
        // 101 rules do not fit the test ingress's 4 KiB body limit, so the reader is called directly
        String rule = "{\"method\":\"GET\",\"path\":\"/x\",\"action\":\"read\",\"risk\":\"low\"}";
        JsonNode rules = GatewayJson.MAPPER.readTree("[" + String.join(",", Collections.nCopies(101, rule)) + "]");

        assertThatThrownBy(() -> ClassificationRuleBodies.parse(rules, Tool.CHAT))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
                    assertThat(e.getMessage()).isEqualTo("config.rules may hold at most 100 rules");
                });
        assertThat(ClassificationRuleBodies.parse(GatewayJson.MAPPER.readTree(
                "[" + String.join(",", Collections.nCopies(100, rule)) + "]"), Tool.CHAT)).hasSize(100);
    }

    @Test
    void aConnectionShowsItsRules() {
        ingress.rows.toolConnection(workspace, "internal_api", new String[0], null, null, null, null, null, null,
                "https://api.example", 3);
        ingress.rows.toolConnectionRules(workspace, "internal_api",
                "[{\"method\":\"POST\",\"path\":\"/admin/**\",\"action\":\"admin.call\",\"risk\":\"critical\"}]");

        TestHttp.Response response = ingress.http.get(base + "/internal_api").bearer(owner).send();

        assertThat(response.status()).isEqualTo(200);
        JsonNode rules = response.json().at("/config/rules");
        assertThat(rules.size()).isEqualTo(1);
        assertThat(rules.get(0).get("method").asString()).isEqualTo("POST");
        assertThat(rules.get(0).get("path").asString()).isEqualTo("/admin/**");
        assertThat(rules.get(0).get("action").asString()).isEqualTo("admin.call");
        assertThat(rules.get(0).get("risk").asString()).isEqualTo("critical");
    }

    @Test
    void theStreamsVerdictsBecomeHttpErrors() {
        responder.answer(workspace.toString(), e -> DecisionResponder.status(e, ReplyStatus.INVALID,
                "config.repos entries must have the form owner/repo"));
        TestHttp.Response invalid = put("code_host", "{\"config\":{\"repos\":[\"nope\"]}}");
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.error()).isEqualTo("config.repos entries must have the form owner/repo");

        responder.answer(workspace.toString(), e -> DecisionResponder.status(e, ReplyStatus.FORBIDDEN, "x"));
        TestHttp.Response forbidden = ingress.http.delete(base + "/docs").bearer(owner).send();
        assertThat(forbidden.status()).isEqualTo(403);
        assertThat(forbidden.error()).isEqualTo("Admin or owner role required");

        responder.answer(workspace.toString(), e -> DecisionResponder.status(e, ReplyStatus.NOT_FOUND, "Tool connection not found"));
        TestHttp.Response missing = ingress.http.delete(base + "/docs").bearer(owner).send();
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.error()).isEqualTo("Tool connection not found");
        assertThat(responder.received(workspace.toString())).extracting(CommandEnvelope::command)
                .contains(new DeleteToolConnection(Tool.DOCS));
    }

    @Test
    void unauthenticatedCallsAre401AndUnknownToolsOrWorkspaceIds400() {
        assertThat(ingress.http.get(base).send().status()).isEqualTo(401);
        assertThat(ingress.http.put(base + "/code_host").body("{}").send().status()).isEqualTo(401);
        assertThat(ingress.http.post(base + "/code_host/webhook-secret").send().status()).isEqualTo(401);

        TestHttp.Response unknownTool = ingress.http.get(base + "/github").bearer(owner).send();
        assertThat(unknownTool.status()).isEqualTo(400);
        assertThat(unknownTool.error()).isEqualTo("tool must be one of: code_host, issue_tracker, chat, docs, internal_api, mcp");
        assertThat(ingress.http.get("/admin/v1/workspaces/acme/tools").bearer(owner).send().error())
                .isEqualTo("workspaceId must be a uuid");
        assertThat(ingress.http.request("PATCH", base + "/code_host").bearer(owner).body("{}").send().status()).isEqualTo(405);
    }

    @Test
    void aRotationShowsTheNewSecretOnceWithTheWebhookSetup() {
        TestHttp.Response response = ingress.http.post(base + "/code_host/webhook-secret").bearer(owner).send();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.headers().first("Cache-Control")).isEqualTo("no-store");
        JsonNode json = response.json();
        String secret = json.at("/webhook/secret").asString();
        assertThat(secret).matches("[0-9a-f]{64}");
        assertThat(json.get("tool").asString()).isEqualTo("code_host");
        assertThat(json.at("/webhook/payloadUrl").asString()).endsWith("/functions/v1/webhook-code-host").startsWith("http://127.0.0.1:");
        assertThat(json.at("/webhook/contentType").asString()).isEqualTo("application/json");
        RotateWebhookSecret command = (RotateWebhookSecret) onlyCommand().command();
        assertThat(command.tool()).isEqualTo(Tool.CODE_HOST);
        assertThat(box.open(command.webhookSecret().value())).isEqualTo(secret);
        assertThat(GatewayJson.MAPPER.writeValueAsString(onlyCommand())).doesNotContain(secret);

        String second = ingress.http.post(base + "/code_host/webhook-secret").bearer(owner).send().json().at("/webhook/secret").asString();
        assertThat(second).isNotEqualTo(secret);
    }

    @Test
    void theRotationsAnswerDoesNotPrintItsSecret() {
        String secret = "0123456789abcdef0123456789abcdef";
        ToolConnectionAdminHandler.RotatedSecret answer = new ToolConnectionAdminHandler.RotatedSecret(true, "code_host",
                new ToolConnectionAdminHandler.WebhookSetupWithSecret("https://gw.example/functions/v1/webhook-code-host",
                        "application/json", secret));

        assertThat(answer.toString()).doesNotContain(secret).contains("secret=redacted");
    }

    @Test
    void aRefusedRotationShowsNoSecret() {
        responder.answer(workspace.toString(), e -> DecisionResponder.status(e, ReplyStatus.NOT_FOUND, "Tool connection not found"));
        TestHttp.Response notConnected = ingress.http.post(base + "/issue_tracker/webhook-secret").bearer(owner).send();
        assertThat(notConnected.status()).isEqualTo(404);
        assertThat(notConnected.json().has("webhook")).isFalse();

        TestHttp.Response noWebhooks = ingress.http.post(base + "/docs/webhook-secret").bearer(owner).send();
        assertThat(noWebhooks.status()).isEqualTo(400);
        assertThat(noWebhooks.error())
                .isEqualTo("webhook secrets are only for the code_host and issue_tracker tools (the tools that send webhooks)");
        assertThat(responder.received(workspace.toString())).hasSize(1);
    }

    @Test
    void theListShowsAllSixToolsWithFlagsNeverSecrets() {
        String sealedToken = box.seal(TOKEN);
        String sealedSecret = box.seal(WEBHOOK_SECRET);
        ingress.rows.toolConnection(workspace, "code_host", new String[] {"acme/api"}, "acme", sealedToken, sealedSecret,
                null, null, null, "https://code.example/api/v3", 4);
        ingress.rows.toolConnection(workspace, "mcp", new String[0], null, null, null, "https://mcp.example/sse", "bearer", "http", null, 5);
        ingress.rows.workspaceState(workspace, false, "{code_host,docs}", "{}", null);

        TestHttp.Response response = ingress.http.get(base).bearer(owner).send();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.text()).doesNotContain(sealedToken).doesNotContain(sealedSecret).doesNotContain(TOKEN);
        JsonNode items = response.json().get("items");
        assertThat(items.valueStream().map(item -> item.get("tool").asString()))
                .containsExactly("code_host", "issue_tracker", "chat", "docs", "internal_api", "mcp");
        JsonNode codeHost = items.get(0);
        assertThat(codeHost.get("connected").booleanValue()).isTrue();
        assertThat(codeHost.get("paused").booleanValue()).isTrue();
        assertThat(codeHost.get("accessTokenSet").booleanValue()).isTrue();
        assertThat(codeHost.get("webhookSecretSet").booleanValue()).isTrue();
        assertThat(codeHost.at("/config/repos").valueStream().map(JsonNode::asString)).containsExactly("acme/api");
        assertThat(codeHost.at("/config/org").asString()).isEqualTo("acme");
        assertThat(codeHost.get("base_url").asString()).isEqualTo("https://code.example/api/v3");
        assertThat(codeHost.at("/webhook/payloadUrl").asString()).endsWith("/functions/v1/webhook-code-host");
        assertThat(codeHost.at("/webhook/contentType").asString()).isEqualTo("application/json");
        assertThat(codeHost.get("version").longValue()).isEqualTo(4);
        assertThat(codeHost.get("updatedBy").asString()).isEqualTo("owner-1");

        JsonNode issueTracker = items.get(1);
        assertThat(issueTracker.get("connected").booleanValue()).isFalse();
        assertThat(issueTracker.get("accessTokenSet").booleanValue()).isFalse();
        assertThat(issueTracker.at("/webhook/payloadUrl").asString()).endsWith("/functions/v1/webhook-issue-tracker");
        JsonNode docs = items.get(3);
        assertThat(docs.get("connected").booleanValue()).isFalse();
        assertThat(docs.get("paused").booleanValue()).as("a tool can be paused before it is connected").isTrue();
        assertThat(docs.get("webhook").isNull()).isTrue();
        JsonNode mcp = items.get(5);
        assertThat(mcp.get("mcp_server_url").asString()).isEqualTo("https://mcp.example/sse");
        assertThat(mcp.get("mcp_auth_type").asString()).isEqualTo("bearer");
        assertThat(mcp.get("mcp_transport").asString()).isEqualTo("http");
        assertThat(mcp.get("accessTokenSet").booleanValue()).isFalse();
        assertThat(mcp.get("paused").booleanValue()).isFalse();
    }

    @Test
    void oneToolIsShownAndAnUnconnectedOneIs404() {
        ingress.rows.toolConnection(workspace, "issue_tracker", new String[0], null, box.seal(TOKEN), null, null, null, null, null, 2);

        TestHttp.Response connected = ingress.http.get(base + "/issue_tracker").bearer(owner).send();
        assertThat(connected.status()).isEqualTo(200);
        assertThat(connected.json().get("ok").booleanValue()).isTrue();
        assertThat(connected.json().get("tool").asString()).isEqualTo("issue_tracker");
        assertThat(connected.json().get("accessTokenSet").booleanValue()).isTrue();
        assertThat(connected.json().get("webhookSecretSet").booleanValue()).isFalse();
        assertThat(connected.text()).doesNotContain(TOKEN).doesNotContain("v1.");

        TestHttp.Response missing = ingress.http.get(base + "/chat").bearer(owner).send();
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.error()).isEqualTo("Tool connection not found");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/code_host"})
    void readsAreForAdminsAndOwnersOnly(String path) {
        ingress.rows.member(workspace, "member-" + workspace, "member");
        ingress.rows.member(workspace, "admin-" + workspace, "admin");

        TestHttp.Response member = ingress.http.get(base + path).bearer(TestTokens.user("member-" + workspace)).send();
        TestHttp.Response stranger = ingress.http.get(base + path).bearer(TestTokens.user("stranger")).send();
        TestHttp.Response unknown = ingress.http.get("/admin/v1/workspaces/" + UUID.randomUUID() + "/tools" + path).bearer(owner).send();
        for (TestHttp.Response response : List.of(member, stranger, unknown)) {
            assertThat(response.status()).isEqualTo(403);
            assertThat(response.error()).isEqualTo("Admin or owner role required");
        }
        TestHttp.Response admin = ingress.http.get(base + path).bearer(TestTokens.user("admin-" + workspace)).send();
        assertThat(admin.status()).isIn(200, 404);
    }

    @Test
    void withoutASecretsKeyNothingSecretIsSealedOrSent() {
        SecretSealer sealer = new SecretSealer(new ConfiguredSecretBox(new SecretsProperties(null)));

        assertThatThrownBy(sealer::requireConfigured)
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
                    assertThat(e.getMessage()).isEqualTo("Secret storage is not configured");
                });
        assertThatThrownBy(() -> sealer.seal(TOKEN)).isInstanceOf(ApiException.class);
    }
}
