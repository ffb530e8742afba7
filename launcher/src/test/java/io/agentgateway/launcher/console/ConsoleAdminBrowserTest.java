package io.agentgateway.launcher.console;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.support.ConsoleIdentityProvider;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.LoopbackServer;
import io.agentgateway.launcher.support.ProxyUpstream;
import io.agentgateway.launcher.support.RealClients;
import io.agentgateway.launcher.support.WebhookSender;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;

/**
 * The console's admin half in a real headless Chromium against the running embedded gateway and the real OpenID
 * provider ({@link ConsoleIdentityProvider}), as its reviewers' half ({@link ConsoleBrowserTest}): a policy with a
 * condition back-tested, tested, saved and deciding the next evaluation; the code host connected through a real OAuth
 * peer in the browser ({@code OAuthTokenEndpoint}'s consent page) and the proxy using its token; a webhook secret
 * rotated and a delivery signed with it accepted; an API key issued, used from octokit with the snippet shown, revoked
 * and refused; a reviewer added who signs in and may decide approvals but not edit policies; a test notification to the
 * real SMTP peer (GreenMail) and a dead letter sent again once; the operators' workspaces. Every form error at its
 * field; no secret in any page after its creation screen (every page the browser sees is kept and searched); axe-core
 * on every screen; the screenshots of docs/console.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleAdminBrowserTest {
    /** An admin of the test's workspace and one of the gateway's operators (GatewayHarness names it). */
    static final String OPERATOR = GatewayHarness.CONSOLE_OPERATOR;
    private static final HttpClient HTTP = GatewayHarness.http11Client();

    private final ProxyUpstream upstream = ProxyUpstream.start();
    private final String upstreamPath = "/gh-" + UUID.randomUUID().toString().substring(0, 8);
    private final String org = "acme-" + UUID.randomUUID().toString().substring(0, 8);
    private final String reviewer = "console-reviewer-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String[]> pagesSeen = new CopyOnWriteArrayList<>();
    private final Map<String, String> secrets = new LinkedHashMap<>();
    private final AtomicInteger chatStatus = new AtomicInteger(500);
    private final List<String> chatPosts = new CopyOnWriteArrayList<>();
    private LoopbackServer chat;
    private String base;
    private TestWorkspace ws;
    private ConsoleBrowser browser;
    private String apiKey;

    @BeforeAll
    void start() {
        base = GatewayHarness.gateway().baseUrl();
        ConsoleIdentityProvider.ensureStarted(base);
        ws = GatewayHarness.newWorkspace();
        member(OPERATOR, "admin");
        chat = LoopbackServer.start("console-chat", true, exchange -> {
            try (exchange) {
                chatPosts.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(chatStatus.get(), -1);
            }
        });
        browser = ConsoleBrowser.start(base);
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.close();
        }
        upstream.close();
        if (chat != null) {
            chat.close();
        }
    }

    @Test
    @Order(1)
    void anAdminSignsInAndFindsTheAdminPages() {
        browser.open("/policies");
        browser.signInAtProvider(OPERATOR);
        assertThat(browser.path()).isEqualTo("/workspaces/" + ws.id() + "/policies");
        assertThat(browser.text("nav")).contains("Policies", "Tools", "API keys", "Members", "Notifications", "Workspaces");
        seen();
    }

    @Test
    @Order(2)
    void aPolicyWithAConditionIsBackTestedTestedSavedAndDecidesTheNextEvaluation() {
        // the history the back-test replays: two publications to prod, one to dev, all allowed by the defaults
        List<String> prodAudits = new ArrayList<>();
        for (String space : List.of("prod", "dev", "prod")) {
            var answer = GatewayHarness.evaluate(ws, Map.of("tool", "docs", "action", "page.publish", "riskLevel", "medium",
                    "agentId", "docs-bot", "payload", Map.of("space", space)));
            assertThat(answer.text("decision")).as(answer.rawBody()).isEqualTo("allow");
            if (space.equals("prod")) {
                prodAudits.add(answer.text("auditLogId"));
            }
        }
        page("/workspaces/" + ws.id() + "/policies/new");
        browser.find("#name").sendKeys("Prod docs need review");
        browser.find("#priority").clear();
        browser.find("#priority").sendKeys("10");
        new Select(browser.find("#decision")).selectByValue("require_approval");
        browser.find("#tool-docs").click();
        browser.find("#actions").sendKeys("page.publish");
        // a condition that does not compile: the API's error at the condition, at its line and column
        browser.find("#condition").sendKeys("args.space ==");
        click("#save-policy", "#condition-error");
        assertThat(browser.find("#condition").getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(browser.text("#condition-error")).startsWith("Line 1, column");
        assertThat(client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), null).rawBody())
                .as("nothing saved").doesNotContain("Prod docs need review");
        assertThat(browser.seriousAccessibilityViolations()).as("editor with an error").isEmpty();

        browser.find("#condition").clear();
        browser.find("#condition").sendKeys("args.space == 'prod'");
        // what it would have done: the last day decided again with the draft
        browser.find("#days").clear();
        browser.find("#days").sendKeys("1");
        click("#run-backtest", "#backtest-result");
        assertThat(Long.parseLong(browser.text("#bt-evaluated"))).isGreaterThanOrEqualTo(3);
        assertThat(browser.text("#bt-changed")).isEqualTo("2");
        List<String> linked = browser.all("#bt-by-action a.audit-link").stream().map(a -> a.getAttribute("href")).toList();
        assertThat(linked).hasSize(2).allSatisfy(href -> assertThat(prodAudits.stream().anyMatch(href::endsWith)).isTrue());
        // the test box: a sample action decided by the draft
        new Select(browser.find("#testTool")).selectByValue("docs");
        browser.find("#testAction").sendKeys("page.publish");
        new Select(browser.find("#testRisk")).selectByValue("medium");
        browser.find("#testPayload").sendKeys("{\"space\": \"prod\"}");
        click("#run-test", "#test-result");
        assertThat(browser.text("#test-decision")).isEqualTo("require_approval");
        assertThat(browser.text("#bt-changed")).as("the back-test shown is the draft's as it is now").isEqualTo("2");
        assertThat(browser.text("#test-matched")).isEqualTo("Prod docs need review (this draft)");
        assertThat(browser.seriousAccessibilityViolations()).as("editor with results").isEmpty();
        browser.screenshot("policy-editor");

        // a recorded action: the dev publication, not matched by the condition
        browser.find("#mode-recorded").click();
        browser.find("#testAuditLogId").sendKeys(auditIdOf("dev"));
        click("#run-test", "#test-result");
        assertThat(browser.text("#test-decision")).isEqualTo("allow");
        assertThat(browser.text("#test-result")).contains("as recorded in the commands log");

        // the audit row a back-test links to
        page(linked.get(0).substring(base.length()));
        assertThat(browser.text("#audit-row")).contains("docs-bot");
        assertThat(browser.seriousAccessibilityViolations()).as("audit row").isEmpty();
        browser.driver.navigate().back();

        page("/workspaces/" + ws.id() + "/policies/new");
        browser.find("#name").sendKeys("Prod docs need review");
        browser.find("#priority").clear();
        browser.find("#priority").sendKeys("10");
        new Select(browser.find("#decision")).selectByValue("require_approval");
        browser.find("#tool-docs").click();
        browser.find("#actions").sendKeys("page.publish");
        browser.find("#condition").sendKeys("args.space == 'prod'");
        click("#save-policy", "#saved");
        assertThat(browser.text("#policy-list")).contains("Prod docs need review").contains("args.space == 'prod'")
                .contains("require_approval");
        // the next evaluation is decided by it
        var next = GatewayHarness.evaluate(ws, Map.of("tool", "docs", "action", "page.publish", "riskLevel", "medium",
                "agentId", "docs-bot", "payload", Map.of("space", "prod")));
        assertThat(next.text("decision")).as(next.rawBody()).isEqualTo("require_approval");
        assertThat(next.text("reason")).isNotBlank();
        assertThat(GatewayHarness.evaluate(ws, Map.of("tool", "docs", "action", "page.publish", "riskLevel", "medium",
                "agentId", "docs-bot", "payload", Map.of("space", "dev"))).text("decision")).isEqualTo("allow");

        // a second policy (made with the API) moved up, edited and deleted in the console
        var second = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), Map.of("name", "Block doc deletes",
                "priority", 20, "decision", "block", "match", Map.of("tools", List.of("docs"), "actions", List.of("page.delete"))));
        assertThat(second.status()).as(second.rawBody()).isEqualTo(201);
        String secondId = second.text("policyId");
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> {
            page("/workspaces/" + ws.id() + "/policies");
            return policyOrder().equals(List.of("Prod docs need review", "Block doc deletes"));
        });
        click("button[aria-label='Move Block doc deletes up']", "#notice");
        assertThat(policyOrder()).containsExactly("Block doc deletes", "Prod docs need review");
        browser.find("a[aria-label='Edit Block doc deletes']").click();
        browser.await("#name");
        assertThat(browser.find("#actions").getAttribute("value")).isEqualTo("page.delete");
        browser.find("#name").clear();
        browser.find("#name").sendKeys("Block doc deletions");
        click("#save-policy", "#saved");
        assertThat(browser.text("#saved")).contains("Block doc deletions");
        assertThat(browser.text("tr[data-policy-id='" + secondId + "']")).contains("Block doc deletions").contains("page.delete");
        click("button[aria-label='Delete Block doc deletions']", "#notice");
        assertThat(policyOrder()).containsExactly("Prod docs need review");

        // the defaults' errors at their fields; who changed the policy is on the page
        browser.find("#approvalTtl").clear();
        browser.find("#approvalTtl").sendKeys("P400D");
        click("#save-defaults", "#approvalTtl-error");
        assertThat(browser.text("#approvalTtl-error")).isEqualTo("approvalTtl must be at most P366D");
        browser.find("#approvalTtl").clear();
        browser.find("#approvalTtl").sendKeys("PT2H");
        click("#save-defaults", "#notice");
        assertThat(browser.find("#approvalTtl").getAttribute("value")).isEqualTo("PT2H");
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> {
            page("/workspaces/" + ws.id() + "/policies");
            return browser.text(".changes").contains("policy \"Prod docs need review\" saved") && browser.text(".changes").contains("by " + OPERATOR);
        });
        assertThat(browser.seriousAccessibilityViolations()).as("policies").isEmpty();
        browser.screenshot("policies");
    }

    @Test
    @Order(3)
    void theCodeHostIsConnectedThroughOAuthInTheBrowserAndTheProxyUsesTheNewToken() {
        page("/workspaces/" + ws.id() + "/tools");
        openSettings("code_host");
        // the egress policy refuses a metadata address: the form error is at the base URL
        browser.find("#code_host-repos").sendKeys(org + "/api");
        browser.find("#code_host-base_url").sendKeys("http://169.254.169.254/latest");
        click("#save-code_host", "#code_host-base_url-error");
        assertThat(browser.text("#code_host-base_url-error")).startsWith("base_url is refused by the egress policy");
        assertThat(browser.find("#code_host-repos").getAttribute("value")).as("kept as typed").isEqualTo(org + "/api");
        // a repository the stream refuses: its error at the repositories
        browser.find("#code_host-repos").clear();
        browser.find("#code_host-repos").sendKeys("not a repo");
        browser.find("#code_host-base_url").clear();
        browser.find("#code_host-base_url").sendKeys(upstream.baseUrl() + upstreamPath);
        click("#save-code_host", "#code_host-repos-error");
        assertThat(browser.text("#code_host-repos-error")).isEqualTo("config.repos entries must have the form owner/repo");
        assertThat(browser.seriousAccessibilityViolations()).as("tools with errors").isEmpty();
        browser.find("#code_host-repos").clear();
        browser.find("#code_host-repos").sendKeys(org + "/api");
        click("#save-code_host", "#state-code_host");
        awaitText("#state-code_host", "connected");

        // Connect: the upstream's consent page, then back on the card with the result
        browser.find("#connect-code_host").click();
        browser.await("#authorize");
        assertThat(browser.driver.getCurrentUrl()).startsWith(GatewayHarness.tokenEndpoint().baseUrl() + "/code-host/authorize?");
        browser.find("#authorize").click();
        browser.await("#oauth-result");
        assertThat(browser.path()).startsWith("/workspaces/" + ws.id() + "/tools?oauth=code_host&result=connected");
        assertThat(browser.text("#oauth-result")).startsWith("Connected");
        String token = GatewayHarness.tokenEndpoint().consents().get(GatewayHarness.tokenEndpoint().consents().size() - 1).token();
        secrets.put("the OAuth access token", token);
        seen();
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> {
            page("/workspaces/" + ws.id() + "/tools");
            return browser.text("#token-code_host").startsWith("set");
        });

        // the proxy uses the new token
        HttpResponse<String> proxied = send(HttpRequest.newBuilder(URI.create(base + "/functions/v1/gateway-proxy/code_host/repos/"
                + org + "/api")).header("Authorization", "Bearer " + ws.apiKey()).GET().build());
        assertThat(proxied.statusCode()).as(proxied.body()).isEqualTo(200);
        ProxyUpstream.Request upstreamSaw = upstream.requestsTo(upstreamPath + "/repos/" + org + "/api").get(0);
        assertThat(upstreamSaw.header("Authorization")).isEqualTo("token " + token);

        // a token pasted for the MCP server: saved, never shown
        String mcpToken = "mcp-token-" + UUID.randomUUID();
        secrets.put("the pasted MCP token", mcpToken);
        openSettings("mcp");
        browser.find("#mcp-mcp_server_url").sendKeys("http://127.0.0.1:9/mcp");
        new Select(browser.find("#mcp-mcp_transport")).selectByValue("http");
        new Select(browser.find("#mcp-mcp_auth_type")).selectByValue("bearer");
        browser.find("#mcp-access_token").sendKeys(mcpToken);
        click("#save-mcp", "#state-mcp");
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> {
            page("/workspaces/" + ws.id() + "/tools");
            return browser.text("#token-mcp").startsWith("set");
        });
        assertThat(browser.find("#mcp-access_token").getAttribute("value")).isEmpty();
        assertThat(browser.seriousAccessibilityViolations()).as("tools").isEmpty();
        browser.screenshot("tools");
    }

    @Test
    @Order(4)
    void aRotatedWebhookSecretSignsTheNextDeliveryAndTheOldOneIsRefused() {
        page("/workspaces/" + ws.id() + "/tools");
        click("#rotate-code_host", "#webhook-secret");
        String secret = browser.text("#webhook-secret");
        assertThat(secret).hasSize(64);
        assertThat(browser.text("#payload-url")).isEqualTo(base + WebhookSender.CODE_HOST);
        assertThat(browser.seriousAccessibilityViolations()).as("webhook secret").isEmpty();
        browser.screenshot("webhook-secret");
        creationScreen();
        secrets.put("the webhook secret", secret);

        byte[] body = WebhookSender.payload("code-host-push.json", Map.of("org", org, "repo_name", "api"));
        var accepted = WebhookSender.post(WebhookSender.CODE_HOST, body,
                WebhookSender.gitHubHeaders(secret, body, "push", UUID.randomUUID().toString()));
        assertThat(accepted.status()).as(accepted.rawBody()).isEqualTo(200);
        assertThat(accepted.body().get("ok").booleanValue()).isTrue();

        // rotated again: the first secret no longer signs anything
        browser.find("#done").click();
        click("#rotate-code_host", "#webhook-secret");
        secrets.put("the second webhook secret", browser.text("#webhook-secret"));
        creationScreen();
        var refused = WebhookSender.post(WebhookSender.CODE_HOST, body,
                WebhookSender.gitHubHeaders(secret, body, "push", UUID.randomUUID().toString()));
        assertThat(refused.status()).as(refused.rawBody()).isEqualTo(401);
        browser.find("#done").click();
        browser.await("#tool-code_host");
        seen();
    }

    @Test
    @Order(5)
    void aKeyIsIssuedUsedFromOctokitWithTheSnippetShownRevokedAndRefused() {
        page("/workspaces/" + ws.id() + "/api-keys");
        browser.find("#key-name").sendKeys("octokit agent");
        browser.find("#scope-proxy").click(); // proxy is ticked by default: no scope at all
        click("#issue-key", "#key-scopes-error");
        assertThat(browser.text("#key-scopes-error")).isEqualTo("scopes must be a non-empty array of: evaluate, mcp, proxy");
        assertThat(browser.find("#key-name").getAttribute("value")).isEqualTo("octokit agent");
        browser.find("#scope-proxy").click();
        click("#issue-key", "#api-key");
        apiKey = browser.text("#api-key");
        assertThat(apiKey).startsWith("agk_");
        secrets.put("the API key", apiKey);
        String snippet = browser.text("#snippet-octokit");
        assertThat(snippet).isEqualTo("const octokit = new Octokit({ baseUrl: '" + base + "/functions/v1/gateway-proxy/code_host', auth: '"
                + apiKey + "' });");
        assertThat(browser.text("#snippet-linear")).contains("apiUrl: '" + base + "/functions/v1/gateway-proxy/issue_tracker/graphql'")
                .contains("apiKey: '" + apiKey + "'");
        assertThat(browser.text("#snippet-mcp")).contains("\"url\": \"" + base + "/functions/v1/mcp-gate/sse\"")
                .contains("\"Authorization\": \"Bearer " + apiKey + "\"").contains("\"transport\": \"sse\"");
        assertThat(browser.seriousAccessibilityViolations()).as("key issued").isEmpty();
        browser.screenshot("api-key-issued");
        creationScreen();

        // octokit with exactly the two values the snippet shows
        String shownBaseUrl = snippet.substring(snippet.indexOf("baseUrl: '") + 10, snippet.indexOf("', auth"));
        String shownAuth = snippet.substring(snippet.indexOf("auth: '") + 7, snippet.lastIndexOf("' })"));
        JsonNode used = RealClients.run("octokit-snippet.mjs", Map.of("baseUrl", shownBaseUrl, "auth", shownAuth, "owner", org, "repo", "api"));
        assertThat(used.at("/getRepo/ok").asBoolean()).as(used.toString()).isTrue();
        assertThat(used.at("/getRepo/value/status").asInt()).isEqualTo(200);
        browser.find("#done").click();
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> {
            page("/workspaces/" + ws.id() + "/api-keys");
            return !keyRow("octokit agent").findElement(By.cssSelector(".last-used")).getText().equals("never");
        });
        assertThat(browser.seriousAccessibilityViolations()).as("keys").isEmpty();
        browser.screenshot("api-keys");

        keyRow("octokit agent").findElement(By.cssSelector("button")).click();
        browser.await("#revoked");
        seen();
        JsonNode refused = RealClients.run("octokit-snippet.mjs", Map.of("baseUrl", shownBaseUrl, "auth", shownAuth, "owner", org, "repo", "api"));
        assertThat(refused.at("/getRepo/ok").asBoolean()).as(refused.toString()).isFalse();
        assertThat(refused.at("/getRepo/status").asInt()).isEqualTo(401);
    }

    @Test
    @Order(6)
    void aMemberIsInvitedAsReviewerWithTheRulesShownAsDisabledActions() {
        page("/workspaces/" + ws.id() + "/members");
        // an admin may not grant the owner role, nor change or remove the owner: disabled, with the reason
        assertThat(browser.find("#invite-role option[value='owner']").getAttribute("disabled")).isNotNull();
        var ownerRow = browser.find("tr[data-user-id='" + ws.ownerId() + "']");
        assertThat(ownerRow.findElement(By.cssSelector("button.danger")).getAttribute("disabled")).isNotNull();
        assertThat(ownerRow.getText()).contains("Only an owner may grant the owner role");
        // the API's error at its field
        browser.find("#invite-user").sendKeys(reviewer);
        browser.find("#invite-email").sendKeys("not-an-email");
        new Select(browser.find("#invite-role")).selectByValue("reviewer");
        click("#invite", "#invite-email-error");
        assertThat(browser.text("#invite-email-error")).isEqualTo("email must be an email address");
        browser.find("#invite-email").clear();
        browser.find("#invite-email").sendKeys(reviewer + "@example.test");
        click("#invite", "#done");
        assertThat(browser.text("tr[data-user-id='" + reviewer + "']")).contains("reviewer");
        assertThat(browser.seriousAccessibilityViolations()).as("members").isEmpty();
        browser.screenshot("members");
    }

    @Test
    @Order(7)
    void aTestNotificationReachesTheSmtpPeerAndADeadLetterIsSentAgainOnce() {
        page("/workspaces/" + ws.id() + "/notifications");
        assertThat(browser.text("#recipients")).contains(OPERATOR + "@example.test").contains(ws.ownerEmail());
        // the egress policy's refusal of a webhook URL, at the field
        browser.find("#chatWebhookUrl").sendKeys("http://169.254.169.254/hook");
        click("#save-notifications", "#chatWebhookUrl-error");
        assertThat(browser.text("#chatWebhookUrl-error")).startsWith("chatWebhookUrl is refused by the egress policy");
        assertThat(browser.find("#chatWebhookUrl").getAttribute("value")).as("a URL is a secret: not shown again").isEmpty();
        String chatUrl = chat.baseUrl() + "/hook/" + UUID.randomUUID();
        secrets.put("the chat webhook URL", chatUrl);
        browser.find("#chatWebhookUrl").sendKeys(chatUrl);
        click("#save-notifications", "#done");
        assertThat(browser.text("#chat-state")).startsWith("set");

        // the test: through the stream and the notifier, to GreenMail; the chat webhook fails (500) until dead-lettered
        int mailsBefore = GatewayHarness.mailTo(OPERATOR + "@example.test").size();
        click("#send-test", "#done");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> GatewayHarness.mailTo(OPERATOR + "@example.test").size() > mailsBefore);
        MimeMessage mail = GatewayHarness.mailTo(OPERATOR + "@example.test").get(mailsBefore);
        assertThat(subject(mail)).startsWith("Test notification from workspace");
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
            page("/workspaces/" + ws.id() + "/notifications");
            return !browser.all("#dead-letter-list tbody tr").isEmpty();
        });
        assertThat(browser.text("#dead-letter-list")).contains("test").contains("chat");
        int posts = chatPosts.size();
        int mails = GatewayHarness.mailTo(OPERATOR + "@example.test").size();
        assertThat(browser.seriousAccessibilityViolations()).as("notifications").isEmpty();
        browser.screenshot("notifications");

        // the chat works again: sent again, once; the email that went out is not repeated
        chatStatus.set(200);
        click("#dead-letter-list button", "#done");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> chatPosts.size() == posts + 1);
        assertThat(browser.text("#dead-letter-list")).contains("by " + OPERATOR);
        assertThat(browser.all("#dead-letter-list button")).as("sent again once: no second button").isEmpty();
        assertThat(GatewayHarness.mailTo(OPERATOR + "@example.test")).hasSize(mails);
        Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> chatPosts.size() == posts + 1);
    }

    @Test
    @Order(8)
    void theAdminApiOffersTheSameNewOperations() {
        // the dead letter the console sent again: listed with who did it, and not sent twice
        var letters = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/dead-letters", ws.ownerJwt(), null);
        assertThat(letters.status()).as(letters.rawBody()).isEqualTo(200);
        JsonNode letter = letters.body().get("items").get(0);
        assertThat(letter.get("kind").asString()).isEqualTo("test");
        assertThat(letter.get("redrivenBy").asString()).isEqualTo(OPERATOR);
        var again = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/dead-letters/" + letter.get("id").asString()
                + "/redrive", ws.ownerJwt(), Map.of());
        assertThat(again.status()).as(again.rawBody()).isEqualTo(409);
        assertThat(again.text("error")).startsWith("This dead letter was sent again by " + OPERATOR);
        assertThat(client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/dead-letters/0-999999/redrive", ws.ownerJwt(),
                Map.of()).status()).isEqualTo(404);
        // who changed what
        var changes = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/changes?area=notifications&area=tool",
                ws.ownerJwt(), null);
        assertThat(changes.status()).as(changes.rawBody()).isEqualTo(200);
        assertThat(changes.rawBody()).contains("notification settings: email on, chat webhook set")
                .contains("code_host webhook secret rotated").contains("\"actorUserId\":\"" + OPERATOR + "\"")
                .doesNotContain("policy \"");
        assertThat(client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/changes?area=secrets", ws.ownerJwt(), null)
                .status()).isEqualTo(400);
        // a key's last use
        var keys = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(), null);
        assertThat(keys.body().get("items").valueStream().filter(k -> k.get("name").asString().equals("octokit agent"))
                .findFirst().orElseThrow().get("lastUsedAt").isNull()).isFalse();
        // a test with nobody to tell is refused; with the owner's email, sent
        TestWorkspace quiet = GatewayHarness.newWorkspace();
        assertThat(client().send("POST", "/admin/v1/workspaces/" + quiet.id() + "/notification-settings/test", quiet.ownerJwt(),
                Map.of()).status()).isEqualTo(200);
        assertThat(client().send("PUT", "/admin/v1/workspaces/" + quiet.id() + "/notification-settings", quiet.ownerJwt(),
                Map.of("emailEnabled", false)).status()).isEqualTo(200);
        var nobody = client().send("POST", "/admin/v1/workspaces/" + quiet.id() + "/notification-settings/test", quiet.ownerJwt(),
                Map.of());
        assertThat(nobody.status()).as(nobody.rawBody()).isEqualTo(409);
        assertThat(nobody.text("error")).startsWith("Nobody to notify");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> GatewayHarness.mailTo(quiet.ownerEmail()).size() == 1);
    }

    @Test
    @Order(9)
    void operatorsListAndCreateWorkspaces() {
        page("/workspaces");
        assertThat(browser.text("#workspace-list")).contains(ws.id());
        click("#create-workspace", "#ws-name-error");
        assertThat(browser.text("#ws-name-error")).isEqualTo("name must be a non-empty string");
        browser.find("#ws-name").sendKeys("Made in the console");
        browser.find("#ws-owner").sendKeys("first-owner-" + UUID.randomUUID().toString().substring(0, 8));
        click("#create-workspace", "#created");
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> {
            page("/workspaces");
            return browser.text("#workspace-list").contains("Made in the console");
        });
        assertThat(browser.seriousAccessibilityViolations()).as("workspaces").isEmpty();
        browser.screenshot("workspaces");
    }

    @Test
    @Order(10)
    void noSecretAppearsInAnyPageAfterItsCreationScreenNorInTheAuditOrChangeRecords() throws Exception {
        // every admin page once more, as the browser and as plain requests with the session
        for (String path : List.of("/workspaces/" + ws.id() + "/policies", "/workspaces/" + ws.id() + "/tools",
                "/workspaces/" + ws.id() + "/api-keys", "/workspaces/" + ws.id() + "/members",
                "/workspaces/" + ws.id() + "/notifications", "/workspaces", "/audit?workspace=" + ws.id(), "/")) {
            page(path);
            HttpResponse<String> plain = send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("Cookie", "agw_session=" + browser.sessionCookie()).GET().build());
            assertThat(plain.statusCode()).isEqualTo(200);
            pagesSeen.add(new String[] {path + " (plain)", plain.body(), "page"});
        }
        assertThat(secrets).hasSize(6);
        int searched = 0;
        for (String[] page : pagesSeen) {
            if ("creation".equals(page[2])) {
                continue;
            }
            searched++;
            for (Map.Entry<String, String> secret : secrets.entrySet()) {
                assertThat(page[1]).as("%s on %s", secret.getKey(), page[0]).doesNotContain(secret.getValue());
            }
        }
        System.err.printf("ConsoleAdminBrowserTest: %d pages searched for %d secrets%n", searched, secrets.size());
        assertThat(searched).isGreaterThan(25);
        try (Connection db = GatewayHarness.db()) {
            for (String table : List.of("audit_log", "admin_changes", "tool_connections", "api_keys", "workspaces")) {
                try (PreparedStatement rows = db.prepareStatement("select t::text from " + table + " t where t::text like ?")) {
                    for (Map.Entry<String, String> secret : secrets.entrySet()) {
                        rows.setString(1, "%" + secret.getValue() + "%");
                        try (ResultSet found = rows.executeQuery()) {
                            assertThat(found.next()).as("%s in %s", secret.getKey(), table).isFalse();
                        }
                    }
                }
            }
        }
    }

    @Test
    @Order(11)
    void theReviewerSignsInDecidesApprovalsAndCannotEditPolicies() throws Exception {
        var held = GatewayHarness.evaluate(ws, Map.of("tool", "docs", "action", "page.publish", "riskLevel", "medium",
                "agentId", "docs-bot", "payload", Map.of("space", "prod")));
        assertThat(held.text("decision")).as(held.rawBody()).isEqualTo("require_approval");
        String approvalId = held.text("approvalRequestId");
        browser.open("/");
        browser.find("form[action='/signout'] button").click();
        browser.await("#signin-button");
        // the provider still knows the admin (its own session): forget it there, as another person's browser would
        browser.open(ConsoleIdentityProvider.issuer() + "/.well-known/openid-configuration");
        browser.driver.manage().deleteAllCookies();
        browser.open("/signin");
        browser.signInAtProvider(reviewer);
        assertThat(browser.text("nav")).contains("Policies").doesNotContain("Tools").doesNotContain("API keys")
                .doesNotContain("Workspaces");
        // the policies, read-only
        page("/workspaces/" + ws.id() + "/policies");
        assertThat(browser.text("#read-only")).contains("(reviewer) may read the policies but not change them");
        assertThat(browser.all("#new-policy")).isEmpty();
        assertThat(browser.all("#policy-list button")).isEmpty();
        assertThat(browser.all("#save-defaults")).isEmpty();
        assertThat(browser.seriousAccessibilityViolations()).as("policies read-only").isEmpty();
        String csrf = browser.find("input[name=_csrf]").getAttribute("value");
        HttpResponse<String> editor = send(HttpRequest.newBuilder(URI.create(base + "/workspaces/" + ws.id() + "/policies/new"))
                .header("Cookie", "agw_session=" + browser.sessionCookie()).GET().build());
        assertThat(editor.statusCode()).isEqualTo(403);
        HttpResponse<String> save = send(HttpRequest.newBuilder(URI.create(base + "/workspaces/" + ws.id() + "/policies/editor"))
                .header("Cookie", "agw_session=" + browser.sessionCookie()).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("_csrf=" + csrf + "&intent=save&name=x&priority=1&decision=allow")).build());
        assertThat(save.statusCode()).isEqualTo(403);
        HttpResponse<String> tools = send(HttpRequest.newBuilder(URI.create(base + "/workspaces/" + ws.id() + "/tools"))
                .header("Cookie", "agw_session=" + browser.sessionCookie()).GET().build());
        assertThat(tools.statusCode()).isEqualTo(403);
        // and decides an approval
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
            browser.open("/approvals/" + ws.id() + "/" + approvalId);
            return !browser.all("#approve-button").isEmpty();
        });
        browser.find("#approve-button").click();
        browser.await(".notice.ok");
        assertThat(client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null).text("reviewedBy"))
                .isEqualTo(reviewer);
    }

    // ---- helpers

    private void member(String userId, String role) {
        var added = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/" + userId, ws.ownerJwt(),
                Map.of("email", userId + "@example.test", "role", role));
        assertThat(added.status()).as(added.rawBody()).isIn(200, 201);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client().send("GET", "/admin/v1/workspaces/" + ws.id()
                + "/members", ws.ownerJwt(), null).rawBody().contains(userId));
    }

    /** Opens a console page and keeps what the browser got. */
    private void page(String path) {
        browser.open(path);
        browser.await("main");
        seen();
    }

    /** Clicks and waits for {@code css} on the page that follows, which is kept. */
    private void click(String button, String css) {
        browser.find(button).click();
        browser.await(css);
        seen();
    }

    private void seen() {
        pagesSeen.add(new String[] {browser.path(), browser.driver.getPageSource(), "page"});
    }

    /** The page just seen is the creation screen of a secret: the one page that may show it. */
    private void creationScreen() {
        String[] last = pagesSeen.remove(pagesSeen.size() - 1);
        pagesSeen.add(new String[] {last[0], last[1], "creation"});
    }

    private List<String> policyOrder() {
        return browser.all("#policy-list tbody .policy-name").stream().map(WebElement::getText).toList();
    }

    /** Opens a tool card's settings, unless they are open already. */
    private void openSettings(String tool) {
        var details = browser.find("#tool-" + tool + " details");
        if (details.getAttribute("open") == null) {
            details.findElement(By.cssSelector("summary")).click();
        }
    }

    private void awaitText(String css, String text) {
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> {
            page(browser.path());
            return browser.text(css).equals(text);
        });
    }

    private WebElement keyRow(String name) {
        return browser.all("#key-list tbody tr").stream().filter(row -> row.getText().startsWith(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no key row " + name));
    }

    private String auditIdOf(String space) {
        try (Connection db = GatewayHarness.db();
             PreparedStatement query = db.prepareStatement("select id::text from audit_log where workspace_id = ?::uuid"
                     + " and action = 'page.publish' and payload_excerpt like ? order by occurred_at limit 1")) {
            query.setString(1, ws.id());
            query.setString(2, "%\"" + space + "\"%");
            return Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> {
                try (ResultSet rs = query.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }, id -> id != null);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static String subject(MimeMessage mail) {
        try {
            return mail.getSubject();
        } catch (jakarta.mail.MessagingException e) {
            throw new AssertionError(e);
        }
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
