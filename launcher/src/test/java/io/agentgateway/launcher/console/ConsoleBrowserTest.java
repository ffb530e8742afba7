package io.agentgateway.launcher.console;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.support.ConsoleIdentityProvider;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.ProxyUpstream;
import io.agentgateway.schemas.GatewayJson;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The console in a real headless Chromium against the running embedded gateway and a real OpenID provider
 * ({@link ConsoleIdentityProvider}): sign-in, an approval appearing live while the inbox is open, what will run, approve
 * (the held call runs once), reject (the agent's status shows the reason), the critical confirmation, the kill switch
 * with its re-authentication, a tool's pause, the audit explorer's filters, deep link and export, the XSS cases, CSRF,
 * another workspace's approval, the viewer role, and axe-core on every screen. One browser and one gateway for the
 * whole class; the screenshots of docs/console are taken here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {
    private static final String XSS_SCRIPT = "<script>window.__xss=1</script>";
    private static final String XSS_IMG = "<img src=x onerror=\"window.__xss=1\">";
    private static final String XSS_LINK = "javascript:window.__xss=1";
    private static final HttpClient HTTP = GatewayHarness.http11Client();

    private final ProxyUpstream upstream = ProxyUpstream.start();
    private final String upstreamPath = "/console-" + UUID.randomUUID();
    private final String admin = "ops-admin-" + UUID.randomUUID().toString().substring(0, 8);
    private final String viewer = "ops-viewer-" + UUID.randomUUID().toString().substring(0, 8);
    private String base;
    private TestWorkspace ws;
    private TestWorkspace other;
    private ConsoleBrowser browser;
    private String heldApprovalId;

    @BeforeAll
    void start() {
        base = GatewayHarness.gateway().baseUrl();
        ConsoleIdentityProvider.ensureStarted(base);
        ws = GatewayHarness.newWorkspace();
        other = GatewayHarness.newWorkspace();
        member(ws, admin, "admin");
        member(ws, viewer, "viewer");
        var tool = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/code_host", ws.ownerJwt(),
                Map.of("base_url", upstream.baseUrl() + upstreamPath, "config", Map.of("access_token", "ghp_console")));
        assertThat(tool.status()).as(tool.rawBody()).isEqualTo(200);
        browser = ConsoleBrowser.start(base);
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.close();
        }
        upstream.close();
    }

    @Test
    @Order(1)
    void withoutASessionPagesGoToSignInAndFragmentsAndPostsAre401() throws Exception {
        HttpResponse<String> page = get("/", null, Map.of());
        assertThat(page.statusCode()).isEqualTo(303);
        assertThat(page.headers().firstValue("Location")).hasValue("/signin?next=%2F");
        assertThat(get("/inbox/items", null, Map.of("HX-Request", "true")).statusCode()).isEqualTo(401);
        assertThat(post("/signout", null, "", Map.of()).statusCode()).isEqualTo(401);
        assertThat(get("/events", null, Map.of()).statusCode()).isEqualTo(303);
        HttpResponse<String> signIn = get("/signin", null, Map.of());
        assertThat(signIn.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp -> assertThat(csp)
                .contains("script-src 'self'").contains("frame-ancestors 'none'").doesNotContain("unsafe-inline"));
        assertThat(signIn.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(signIn.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");

        browser.open("/audit");
        browser.await("#signin-button");
        assertThat(browser.path()).startsWith("/signin?next=");
        assertThat(browser.seriousAccessibilityViolations()).as("sign-in page").isEmpty();
        browser.screenshot("signin");
    }

    @Test
    @Order(2)
    void signsInThroughTheOrganizationsOpenIdProvider() {
        browser.signInAtProvider(admin);
        // it came back to where it was going
        assertThat(browser.path()).startsWith("/audit");
        assertThat(browser.text(".who .user")).isEqualTo(admin + "@example.test");
        browser.sessionCookie();
    }

    @Test
    @Order(3)
    void anApprovalAppearsLiveWhileTheInboxIsOpen() {
        browser.open("/");
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> "live".equals(browser.find("#live-status").getAttribute("data-state")));
        int before = browser.all(".inbox .item").size();

        long sent = System.nanoTime();
        heldApprovalId = holdFileWrite("deploy-bot", "on: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n");
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> !browser.all("[data-approval-id='" + heldApprovalId + "']").isEmpty());
        long millis = (System.nanoTime() - sent) / 1_000_000;
        System.err.printf("ConsoleBrowserTest: the held call appeared in the open inbox %d ms after it was held%n", millis);
        assertThat(browser.all(".inbox .item")).hasSize(before + 1);
        assertThat(browser.text("[data-approval-id='" + heldApprovalId + "']")).contains("code_host").contains("file.write")
                .contains("deploy-bot");
        assertThat(browser.seriousAccessibilityViolations()).as("inbox").isEmpty();
        browser.screenshot("inbox");
    }

    @Test
    @Order(4)
    void theApprovalPageShowsExactlyWhatWillRun() {
        browser.find("[data-approval-id='" + heldApprovalId + "'] a.open").click();
        browser.await("#willrun");
        assertThat(browser.path()).isEqualTo("/approvals/" + ws.id() + "/" + heldApprovalId);
        String shown = browser.text(".call");
        assertThat(shown).contains("PUT").contains(upstream.baseUrl() + upstreamPath + "/repos/acme/api/contents/.ci/deploy.yml")
                .contains("File content (decoded)").contains("runs-on: ubuntu-latest").contains("Bound to call digest");
        assertThat(browser.text("#asked")).isNotEmpty();
        assertThat(browser.bodyText()).contains("file.write").contains("classified by the gateway");
        // the keyboard: r goes to the rejection reason, a to Approve
        browser.find("body").sendKeys("r");
        assertThat(browser.driver.switchTo().activeElement().getAttribute("id")).isEqualTo("reject-reason");
        browser.find("main h1").click();
        browser.find("body").sendKeys("a");
        assertThat(browser.driver.switchTo().activeElement().getAttribute("id")).isEqualTo("approve-button");
        assertThat(browser.seriousAccessibilityViolations()).as("approval page").isEmpty();
        browser.screenshot("approval");
    }

    @Test
    @Order(5)
    void approvingRunsTheHeldCallOnce() {
        browser.find("#approve-reason").sendKeys("release window is open");
        browser.find("#approve-button").click();
        browser.await(".notice.ok");
        assertThat(browser.text(".notice.ok")).contains("approved");
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            browser.open("/approvals/" + ws.id() + "/" + heldApprovalId);
            return browser.text("#timeline").contains("Executed");
        });
        assertThat(upstream.requestsTo(upstreamPath)).as("the held call ran once").hasSize(1);
        assertThat(browser.text(".status")).isEqualTo("executed");
        assertThat(browser.all("#approve-button")).isEmpty();
        assertThat(browser.bodyText()).contains("This approval can no longer be acted on");
        browser.screenshot("approval-executed");
    }

    @Test
    @Order(6)
    void rejectingNeedsAReasonAndTheAgentSeesIt() throws Exception {
        String approvalId = evaluate(Map.of("tool", "docs", "action", "page.publish", "riskLevel", "high",
                "agentId", "writer-bot", "agentName", XSS_SCRIPT, "payload", Map.of("title", XSS_IMG, "link", XSS_LINK)));
        browser.open("/approvals/" + ws.id() + "/" + approvalId);
        browser.await("#reject-button");
        assertThat(browser.find("#reject-reason").getAttribute("required")).isNotNull();
        // without a reason the server refuses too (the browser's required attribute aside)
        HttpResponse<String> noReason = post("/approvals/" + ws.id() + "/" + approvalId + "/reject", browser.sessionCookie(),
                "_csrf=" + csrf() + "&reason=", Map.of("Origin", base));
        assertThat(noReason.statusCode()).isEqualTo(400);
        assertThat(noReason.body()).contains("A rejection needs a reason");

        String reason = "Not during the freeze " + XSS_IMG;
        browser.find("#reject-reason").sendKeys(reason);
        browser.find("#reject-button").click();
        browser.await(".notice.ok");
        var status = client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null);
        assertThat(status.text("status")).isEqualTo("rejected");
        assertThat(status.text("reviewReason")).isEqualTo(reason);
        assertThat(status.text("reviewedBy")).isEqualTo(admin);
        assertNothingExecuted();
    }

    @Test
    @Order(7)
    void aCriticalActionAsksForConfirmationBeforeItIsApproved() throws Exception {
        var defaults = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/defaults", ws.ownerJwt(),
                Map.of("decisions", Map.of("critical", "require_approval")));
        assertThat(defaults.status()).as(defaults.rawBody()).isEqualTo(200);
        String approvalId = evaluate(Map.of("tool", "mcp", "action", "drop_database", "riskLevel", "critical",
                "agentId", "db-bot", "payload", Map.of("database", "prod")));
        HttpResponse<String> unconfirmed = post("/approvals/" + ws.id() + "/" + approvalId + "/approve", browser.sessionCookie(),
                "_csrf=" + csrf(), Map.of("Origin", base));
        assertThat(unconfirmed.statusCode()).isEqualTo(400);
        assertThat(unconfirmed.body()).contains("critical action");

        browser.open("/approvals/" + ws.id() + "/" + approvalId);
        browser.await("#confirm-critical");
        browser.find("body").sendKeys("a");
        assertThat(browser.driver.switchTo().activeElement().getAttribute("id")).isEqualTo("confirm-critical");
        browser.find("#confirm-critical").click();
        browser.find("#approve-button").click();
        browser.await(".notice.ok");
        assertThat(client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null).text("status"))
                .isEqualTo("approved");
    }

    @Test
    @Order(8)
    void theKillSwitchIsTurnedOnAndOffWithAReasonAndARecentSignIn() throws Exception {
        String page = "/workspaces/" + ws.id() + "/kill-switch";
        browser.open(page);
        browser.await("#switch-button");
        assertThat(browser.text("#switch-state")).startsWith("Off");
        browser.find("#switch-reason").sendKeys("agent deleting branches " + XSS_SCRIPT);
        browser.find("#switch-button").click();
        browser.await("#applied");
        assertThat(browser.text("#applied")).contains("enable").contains("applied");
        assertThat(browser.text("#switch-state")).startsWith("ON");
        assertThat(browser.bodyText()).contains("turned on by " + admin).contains("agent deleting branches " + XSS_SCRIPT);
        assertThat(client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/kill-switch", ws.ownerJwt(), null)
                .body().get("killSwitchEnabled").asBoolean()).isTrue();
        assertThat(browser.seriousAccessibilityViolations()).as("kill switch page").isEmpty();
        browser.screenshot("kill-switch");

        // a sign-in older than the kill switch allows: the provider is asked again first, then the switch works
        ageSignIn(Duration.ofMinutes(10));
        browser.open(page);
        browser.await("#reauth-note");
        browser.find("#switch-reason").sendKeys("incident over");
        browser.find("#switch-button").click();
        browser.await("#reauth-link").click();
        browser.signInAtProvider(admin);
        assertThat(browser.path()).isEqualTo(page + "?reauthenticated=1");
        assertThat(client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/kill-switch", ws.ownerJwt(), null)
                .body().get("killSwitchEnabled").asBoolean()).as("nothing applied before the re-authentication").isTrue();
        assertThat(browser.all("#reauth-note")).isEmpty();
        browser.find("#switch-reason").sendKeys("incident over");
        browser.find("#switch-button").click();
        browser.await("#applied");
        assertThat(browser.text("#switch-state")).startsWith("Off");
    }

    @Test
    @Order(9)
    void aToolIsPausedAndResumed() {
        browser.open("/workspaces/" + ws.id() + "/kill-switch");
        browser.find("#reason-docs").sendKeys("docs agent is looping");
        browser.find("#pause-docs").click();
        browser.await("#applied");
        assertThat(browser.text("tr[data-tool='docs']")).contains("paused").contains("docs agent is looping");
        assertThat(client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/kill-switch", ws.ownerJwt(), null)
                .body().get("pausedTools").toString()).contains("docs");
        browser.find("#reason-docs").sendKeys("fixed");
        browser.find("#resume-docs").click();
        browser.await("#applied");
        assertThat(browser.text("tr[data-tool='docs'] .status")).isEqualTo("active");
    }

    @Test
    @Order(10)
    void theAuditLogIsFilteredPagedLinkedAndExported() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(GatewayHarness.evaluate(ws, Map.of("tool", "docs", "action", "page.read", "riskLevel", "low",
                    "agentId", "audit-bot")).text("decision")).isEqualTo("allow");
        }
        browser.open("/audit?workspace=" + ws.id());
        browser.await("#f-agent").sendKeys("audit-bot");
        new org.openqa.selenium.support.ui.Select(browser.find("#f-decision")).selectByValue("allow");
        browser.find("#apply-filters").click();
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> browser.all("table.audit tbody tr").size() == 3);
        assertThat(browser.all("table.audit tbody tr")).allSatisfy(row -> assertThat(row.getText()).contains("audit-bot").contains("allow"));
        assertThat(browser.seriousAccessibilityViolations()).as("audit explorer").isEmpty();
        browser.screenshot("audit");

        // a deep link keeps the filters
        String link = browser.find("#deep-link").getAttribute("href");
        browser.open("/");
        browser.open(link);
        assertThat(browser.find("#f-agent").getAttribute("value")).isEqualTo("audit-bot");
        assertThat(browser.all("table.audit tbody tr")).hasSize(3);

        // keyset pages
        browser.open(link + "&limit=2");
        assertThat(browser.all("table.audit tbody tr")).hasSize(2);
        List<String> firstPage = browser.all("table.audit tbody tr").stream().map(r -> r.getAttribute("data-audit-id")).toList();
        browser.find("#next-page").click();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> browser.all("table.audit tbody tr").size() == 1);
        assertThat(browser.find("table.audit tbody tr").getAttribute("data-audit-id")).isNotIn(firstPage);

        // the export of what is filtered
        String csvLink = browser.find("#export-csv").getAttribute("href");
        HttpResponse<String> csv = get(csvLink.substring(base.length()), browser.sessionCookie(), Map.of());
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/csv"));
        assertThat(csv.body().lines().skip(1).toList()).hasSize(3).allSatisfy(line -> assertThat(line).contains("audit-bot"));

        // a bad filter is a 400 page, never a 500
        HttpResponse<String> bad = get("/audit?workspace=" + ws.id() + "&risk=extreme", browser.sessionCookie(), Map.of());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("risk must be one of");
    }

    @Test
    @Order(11)
    void markupFromAgentsAndReviewersExecutesNothing() {
        String mcp = evaluate(Map.of("tool", "mcp", "action", "update_page", "riskLevel", "high", "agentId", XSS_LINK,
                "agentName", XSS_IMG, "requestedBy", XSS_SCRIPT,
                "payload", Map.of("name", XSS_SCRIPT, "html", XSS_IMG, "href", XSS_LINK)));
        for (String page : List.of("/", "/approvals/" + ws.id() + "/" + mcp, "/audit?workspace=" + ws.id(),
                "/workspaces/" + ws.id() + "/kill-switch", "/audit?workspace=" + ws.id() + "&agentId="
                        + URLEncoder.encode(XSS_LINK, StandardCharsets.UTF_8))) {
            browser.open(page);
            browser.await("main");
            assertThat(browser.script("return window.__xss === undefined")).as(page).isEqualTo(true);
            assertThat(browser.all("img")).as(page).isEmpty();
            assertThat(browser.all("script:not([src])")).as(page).isEmpty();
            assertThat(browser.all("a[href^='javascript'], a[href^='JAVASCRIPT']")).as(page).isEmpty();
            assertThat(browser.all("[onerror], [onclick], [onload]")).as(page).isEmpty();
        }
        browser.open("/approvals/" + ws.id() + "/" + mcp);
        assertThat(browser.bodyText()).contains(XSS_IMG).contains(XSS_SCRIPT).contains(XSS_LINK);
    }

    @Test
    @Order(12)
    void aStateChangeWithoutTheCsrfTokenOrFromAnotherSiteIsRefused() throws Exception {
        String approvalId = evaluate(Map.of("tool", "docs", "action", "page.delete", "riskLevel", "high", "agentId", "csrf-bot"));
        String path = "/approvals/" + ws.id() + "/" + approvalId + "/approve";
        String cookie = browser.sessionCookie();
        assertThat(post(path, cookie, "reason=x", Map.of()).statusCode()).as("no token").isEqualTo(403);
        assertThat(post(path, cookie, "_csrf=" + "x".repeat(43), Map.of()).statusCode()).as("a wrong token").isEqualTo(403);
        assertThat(post(path, cookie, "_csrf=" + csrf(), Map.of("Origin", "https://evil.example")).statusCode())
                .as("another origin").isEqualTo(403);
        assertThat(post(path, cookie, "_csrf=" + csrf(), Map.of("Sec-Fetch-Site", "cross-site")).statusCode())
                .as("another site").isEqualTo(403);
        assertThat(post("/workspaces/" + ws.id() + "/kill-switch", cookie, "action=enable&reason=x", Map.of()).statusCode())
                .isEqualTo(403);
        assertThat(client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null).text("status"))
                .isEqualTo("pending");
        assertThat(client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/kill-switch", ws.ownerJwt(), null)
                .body().get("killSwitchEnabled").asBoolean()).isFalse();
    }

    @Test
    @Order(13)
    void anotherWorkspacesApprovalOrAuditIsNotFound() throws Exception {
        String theirs = GatewayHarness.evaluate(other, Map.of("tool", "docs", "action", "page.publish", "riskLevel", "high",
                "agentId", "secret-agent")).text("approvalRequestId");
        awaitProjected(theirs);
        String cookie = browser.sessionCookie();
        HttpResponse<String> approval = get("/approvals/" + other.id() + "/" + theirs, cookie, Map.of());
        assertThat(approval.statusCode()).isEqualTo(404);
        assertThat(approval.body()).doesNotContain("secret-agent");
        assertThat(get("/approvals/" + ws.id() + "/" + theirs, cookie, Map.of()).statusCode()).isEqualTo(404);
        assertThat(get("/audit?workspace=" + other.id(), cookie, Map.of()).statusCode()).isEqualTo(404);
        assertThat(get("/approvals/" + ws.id() + "/not-a-uuid", cookie, Map.of()).statusCode()).isEqualTo(404);
        assertThat(post("/approvals/" + other.id() + "/" + theirs + "/approve", cookie, "_csrf=" + csrf(), Map.of()).statusCode())
                .isEqualTo(404);
        browser.open("/approvals/" + other.id() + "/" + theirs);
        browser.await("main");
        assertThat(browser.seriousAccessibilityViolations()).as("error page").isEmpty();
    }

    @Test
    @Order(14)
    void theAdminApiAcceptsTheProvidersTokens() throws Exception {
        OidcCodeFlow.Tokens tokens = OidcCodeFlow.signIn(base, admin);
        var withIdToken = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/audit-log?limit=1", tokens.idToken(), null);
        assertThat(withIdToken.status()).as(withIdToken.rawBody()).isEqualTo(200);
        var withAccessToken = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/kill-switch", tokens.accessToken(), null);
        assertThat(withAccessToken.status()).as(withAccessToken.rawBody()).isEqualTo(200);
        String forged = tokens.idToken().substring(0, tokens.idToken().lastIndexOf('.') + 1) + "AAAA";
        assertThat(client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/kill-switch", forged, null).status()).isEqualTo(401);
    }

    @Test
    @Order(15)
    void aViewerReadsButCannotDecide() throws Exception {
        String approvalId = evaluate(Map.of("tool", "docs", "action", "page.publish", "riskLevel", "high", "agentId", "viewer-bot"));
        browser.open("/");
        browser.find("form[action='/signout'] button").click();
        browser.await("#signin-button");
        assertThat(browser.bodyText()).contains("signed out");
        assertThat(get("/", null, Map.of()).statusCode()).isEqualTo(303);
        // the provider still knows the admin (its own session): forget it there, as another person's browser would
        browser.open(ConsoleIdentityProvider.issuer() + "/.well-known/openid-configuration");
        browser.driver.manage().deleteAllCookies();
        browser.open("/signin");
        browser.signInAtProvider(viewer);
        browser.open("/approvals/" + ws.id() + "/" + approvalId);
        browser.await("#decide");
        assertThat(browser.all("#approve-button")).isEmpty();
        assertThat(browser.bodyText()).contains("(viewer) may read approvals but not decide them");
        HttpResponse<String> refused = post("/approvals/" + ws.id() + "/" + approvalId + "/approve", browser.sessionCookie(),
                "_csrf=" + csrf(), Map.of());
        assertThat(refused.statusCode()).isEqualTo(403);
        browser.open("/workspaces/" + ws.id() + "/kill-switch");
        assertThat(browser.all("#switch-button")).isEmpty();
        assertThat(client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null).text("status"))
                .isEqualTo("pending");
    }

    @Test
    @Order(16)
    void aPageWhoseLiveFeedIsCutSaysItIsNotLive() {
        browser.open("/");
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> "live".equals(browser.find("#live-status").getAttribute("data-state")));
        // the event stream cut off (as a proxy dropping it would): the page must not look live
        browser.driver.executeCdpCommand("Network.enable", Map.of());
        browser.driver.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of("*/events*")));
        try {
            browser.open("/");
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "down".equals(browser.find("#live-status").getAttribute("data-state")));
            assertThat(browser.text("#live-status")).isEqualTo("Not live: reload to see changes");
        } finally {
            browser.driver.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of()));
        }
    }

    // ---- helpers

    private static void member(TestWorkspace ws, String userId, String role) {
        var added = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/" + userId, ws.ownerJwt(),
                Map.of("email", userId + "@example.test", "role", role));
        assertThat(added.status()).as(added.rawBody()).isIn(200, 201);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client().send("GET", "/admin/v1/workspaces/" + ws.id()
                + "/members", ws.ownerJwt(), null).rawBody().contains(userId));
    }

    /** An evaluation held for approval, once the read model (what the console shows) has its approval. */
    private String evaluate(Map<String, Object> body) {
        var answer = GatewayHarness.evaluate(ws, body);
        assertThat(answer.text("decision")).as(answer.rawBody()).isEqualTo("require_approval");
        String approvalId = answer.text("approvalRequestId");
        awaitProjected(approvalId);
        return approvalId;
    }

    private static void awaitProjected(String approvalId) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            try (Connection db = GatewayHarness.db();
                 PreparedStatement query = db.prepareStatement("select 1 from approval_requests where id = ?::uuid")) {
                query.setString(1, approvalId);
                return query.executeQuery().next();
            }
        });
    }

    /** A code-host contents write through the proxy, held for approval (file.write is high risk). */
    private String holdFileWrite(String agent, String content) {
        String body = GatewayJson.MAPPER.writeValueAsString(Map.of("message", "ci: deploy",
                "content", Base64.getEncoder().encodeToString(content.getBytes(StandardCharsets.UTF_8))));
        try {
            HttpResponse<String> held = HTTP.send(HttpRequest.newBuilder(URI.create(base
                            + "/functions/v1/gateway-proxy/code_host/repos/acme/api/contents/.ci/deploy.yml"))
                    .header("Authorization", "Bearer " + ws.apiKey()).header("Content-Type", "application/json")
                    .header("X-Agent-Id", agent).PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(held.statusCode()).as(held.body()).isEqualTo(403);
            return GatewayJson.MAPPER.readTree(held.body()).get("approvalRequestId").asString();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private void assertNothingExecuted() {
        assertThat(upstream.requestsTo(upstreamPath)).hasSize(1);
    }

    /** The session's CSRF token as the pages carry it. */
    private String csrf() {
        String current = browser.path();
        if (browser.all("input[name=_csrf]").isEmpty()) {
            browser.open("/");
        }
        String token = browser.find("input[name=_csrf]").getAttribute("value");
        if (!browser.path().equals(current)) {
            browser.open(current);
        }
        return token;
    }

    /** Moves this browser's last proof of identity into the past (as if signed in {@code ago}). */
    private void ageSignIn(Duration ago) throws Exception {
        try (Connection db = GatewayHarness.db();
             PreparedStatement update = db.prepareStatement(
                     "update ingress.console_sessions set authenticated_at = now() - ?::interval where id_hash = ?")) {
            update.setString(1, ago.toSeconds() + " seconds");
            update.setString(2, sha256(browser.sessionCookie()));
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    private static String sha256(String value) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(value.getBytes(StandardCharsets.UTF_8)));
    }

    private HttpResponse<String> get(String path, String cookie, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (cookie != null) {
            request.header("Cookie", "agw_session=" + cookie);
        }
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String cookie, String form, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
        if (cookie != null) {
            request.header("Cookie", "agw_session=" + cookie);
        }
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
