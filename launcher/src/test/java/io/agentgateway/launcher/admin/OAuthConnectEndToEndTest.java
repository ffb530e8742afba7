package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.tokenEndpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.CapturedLogLines;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.OAuthTokenEndpoint;
import io.agentgateway.schemas.secret.SecretBox;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The OAuth connect flows through the whole gateway: an admin's start (302 to the authorize URL with a
 * signed state), the upstream's redirect back to the callback, the code exchanged at a real token
 * endpoint stand-in ({@link OAuthTokenEndpoint}), the token stored sealed through the log and shown
 * only as {@code accessTokenSet}. Every failure stores nothing.
 */
class OAuthConnectEndToEndTest {
    private static final Duration PROJECTED = Duration.ofSeconds(20);
    private static final String IT_CALLBACK = "/functions/v1/issue-tracker-oauth-callback";
    private static final String CH_CALLBACK = "/functions/v1/code-host-oauth-callback";
    private static final HttpClient NO_REDIRECTS = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @Test
    void theIssueTrackerFlowStoresTheTokenSealedAndKeepsTheConnectionsOtherFields() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(put(ws, "issue_tracker", Map.of("config", Map.of("organization_id", "org-1", "team_id", "team-1"))).status())
                .isEqualTo(200);
        long before = await().atMost(PROJECTED).until(() -> tool(ws, "issue_tracker"), r -> r.status() == 200)
                .body().get("version").longValue();
        String token = "lin_oauth_" + UUID.randomUUID().toString().replace("-", "");
        String code = tokenEndpoint().grant(token);
        List<String> responses = new ArrayList<>();
        List<String> logLines;

        try (CapturedLogLines logs = CapturedLogLines.start()) {
            URI location = start(ws.ownerJwt(), ws.id(), "issue_tracker");
            Map<String, String> query = query(location);
            assertThat(location.toString()).startsWith(tokenEndpoint().baseUrl() + "/issue-tracker/authorize?prompt=consent&");
            assertThat(query).containsEntry("response_type", "code")
                    .containsEntry("client_id", "issue-tracker-client")
                    .containsEntry("redirect_uri", GatewayHarness.gateway().baseUrl() + IT_CALLBACK)
                    .containsEntry("scope", "read,write")
                    .containsKey("state");
            assertThat(location.toString()).doesNotContain(OAuthTokenEndpoint.CLIENT_SECRET);

            var connected = callback(IT_CALLBACK, "code=" + code + "&state=" + enc(query.get("state")));
            responses.add(connected.rawBody());
            assertThat(connected.status()).as(connected.rawBody()).isEqualTo(200);
            assertThat(connected.body().get("ok").booleanValue()).isTrue();
            assertThat(connected.text("workspaceId")).isEqualTo(ws.id());
            assertThat(connected.text("tool")).isEqualTo("issue_tracker");
            assertThat(connected.body().get("accessTokenSet").booleanValue()).isTrue();

            JsonNode shown = await().atMost(PROJECTED).until(() -> tool(ws, "issue_tracker").body(),
                    body -> body.get("version").longValue() > before);
            responses.add(shown.toString());
            responses.add(client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/tools", ws.ownerJwt(), null).rawBody());
            assertThat(shown.get("accessTokenSet").booleanValue()).isTrue();
            assertThat(shown.at("/config/organization_id").asString()).as("kept").isEqualTo("org-1");
            assertThat(shown.at("/config/team_id").asString()).as("kept").isEqualTo("team-1");
            assertThat(shown.get("updatedBy").asString()).isEqualTo(ws.ownerId());
            logLines = logs.lines();
        }

        // exactly one exchange, form-encoded, with the app's credentials and the redirect URI of the start
        List<OAuthTokenEndpoint.Exchange> exchanges = tokenEndpoint().exchangesOf(code);
        assertThat(exchanges).hasSize(1);
        OAuthTokenEndpoint.Exchange exchange = exchanges.get(0);
        assertThat(exchange.path()).isEqualTo("/issue-tracker/token");
        assertThat(exchange.contentType()).startsWith("application/x-www-form-urlencoded");
        assertThat(exchange.accept()).contains("application/json");
        assertThat(exchange.form()).containsEntry("grant_type", "authorization_code")
                .containsEntry("client_id", "issue-tracker-client")
                .containsEntry("client_secret", OAuthTokenEndpoint.CLIENT_SECRET)
                .containsEntry("redirect_uri", GatewayHarness.gateway().baseUrl() + IT_CALLBACK);

        // stored sealed, opening to the token the endpoint issued
        String sealed = sealedToken(ws, "issue_tracker").orElseThrow();
        assertThat(sealed).startsWith("v1.").doesNotContain(token);
        assertThat(SecretBox.fromBase64Key(GatewayHarness.gateway().secrets().secretsKey()).open(sealed)).isEqualTo(token);

        List<String> secrets = List.of(token, OAuthTokenEndpoint.CLIENT_SECRET);
        assertThat(responses).noneMatch(r -> secrets.stream().anyMatch(r::contains));
        assertThat(logLines).as("log lines of the flow").isNotEmpty();
        assertThat(logLines).noneMatch(line -> secrets.stream().anyMatch(line::contains));
    }

    @Test
    void theCodeHostFlowStoresTheTokenAndKeepsReposAndTheWebhookSecret() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(put(ws, "code_host", Map.of("config", Map.of("repos", List.of("acme/api"), "org", "acme"),
                "webhook_secret", "whsec-kept", "base_url", "https://code.example/api/v3")).status()).isEqualTo(200);
        long before = await().atMost(PROJECTED).until(() -> tool(ws, "code_host"), r -> r.status() == 200)
                .body().get("version").longValue();
        String token = "gho_" + UUID.randomUUID().toString().replace("-", "");
        String code = tokenEndpoint().grant(token);

        URI location = start(ws.ownerJwt(), ws.id(), "code_host");
        Map<String, String> query = query(location);
        assertThat(query).containsEntry("redirect_uri", GatewayHarness.gateway().baseUrl() + CH_CALLBACK)
                .containsEntry("scope", "repo read:org")
                .containsEntry("client_id", "code-host-client");

        var connected = callback(CH_CALLBACK, "code=" + code + "&state=" + enc(query.get("state")));
        assertThat(connected.status()).as(connected.rawBody()).isEqualTo(200);
        assertThat(connected.rawBody()).doesNotContain(token);

        JsonNode shown = await().atMost(PROJECTED).until(() -> tool(ws, "code_host").body(),
                body -> body.get("version").longValue() > before);
        assertThat(shown.toString()).doesNotContain(token);
        assertThat(shown.get("accessTokenSet").booleanValue()).isTrue();
        assertThat(shown.get("webhookSecretSet").booleanValue()).isTrue();
        assertThat(shown.at("/config/repos").valueStream().map(JsonNode::asString)).containsExactly("acme/api");
        assertThat(shown.at("/config/org").asString()).isEqualTo("acme");
        assertThat(shown.get("base_url").asString()).isEqualTo("https://code.example/api/v3");
        SecretBox box = SecretBox.fromBase64Key(GatewayHarness.gateway().secrets().secretsKey());
        assertThat(box.open(sealedToken(ws, "code_host").orElseThrow())).isEqualTo(token);
        assertThat(tokenEndpoint().exchangesOf(code)).singleElement()
                .satisfies(e -> assertThat(e.path()).isEqualTo("/code-host/token"));
    }

    @Test
    void aStateIsUsableOnceEvenWhenItsFirstUseFailed() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String first = "first-" + UUID.randomUUID();
        String state = query(start(ws.ownerJwt(), ws.id(), "issue_tracker")).get("state");
        assertThat(callback(IT_CALLBACK, "code=" + tokenEndpoint().grant(first) + "&state=" + enc(state)).status()).isEqualTo(200);

        String second = tokenEndpoint().grant("second-" + UUID.randomUUID());
        var reused = callback(IT_CALLBACK, "code=" + second + "&state=" + enc(state));
        assertThat(reused.status()).isEqualTo(409);
        assertThat(reused.text("error")).isEqualTo("state was already used: start the connection again");
        assertThat(tokenEndpoint().exchangesOf(second)).as("never exchanged").isEmpty();

        // a state whose exchange failed is spent as well
        String failing = query(start(ws.ownerJwt(), ws.id(), "issue_tracker")).get("state");
        assertThat(callback(IT_CALLBACK, "code=http-400&state=" + enc(failing)).status()).isEqualTo(502);
        String third = tokenEndpoint().grant("third-" + UUID.randomUUID());
        assertThat(callback(IT_CALLBACK, "code=" + third + "&state=" + enc(failing)).status()).isEqualTo(409);
        assertThat(tokenEndpoint().exchangesOf(third)).as("never exchanged").isEmpty();

        SecretBox box = SecretBox.fromBase64Key(GatewayHarness.gateway().secrets().secretsKey());
        await().atMost(PROJECTED).until(() -> sealedToken(ws, "issue_tracker").isPresent());
        assertThat(box.open(sealedToken(ws, "issue_tracker").orElseThrow())).isEqualTo(first);
    }

    /**
     * The ingress's own table is migrated by the ingress (schema {@code ingress}); a read-model rebuild swaps only
     * the projector's tables, so a state spent before a rebuild stays spent after it (issue 18: before, the
     * rebuild swapped {@code public.oauth_state_uses} for an empty table and a spent state became usable again).
     */
    @Test
    void aSpentStateStaysSpentAcrossAReadModelRebuild() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String state = query(start(ws.ownerJwt(), ws.id(), "issue_tracker")).get("state");
        String first = tokenEndpoint().grant("before-rebuild-" + UUID.randomUUID());
        assertThat(callback(IT_CALLBACK, "code=" + first + "&state=" + enc(state)).status()).isEqualTo(200);
        assertThat(stateUses("ingress")).isPositive();

        EmbeddedGateway gateway = GatewayHarness.gateway();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int exit = io.agentgateway.launcher.cli.RebuildCommand.run(List.of("--bootstrap-servers", gateway.bootstrapServers(),
                        "--jdbc-url=" + gateway.jdbcUrl(), "--db-user", gateway.postgresUser(),
                        "--db-password", gateway.postgresPassword()),
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();

        String second = tokenEndpoint().grant("after-rebuild-" + UUID.randomUUID());
        var reused = callback(IT_CALLBACK, "code=" + second + "&state=" + enc(state));
        assertThat(reused.status()).as(reused.rawBody()).isEqualTo(409);
        assertThat(reused.text("error")).isEqualTo("state was already used: start the connection again");
        assertThat(tokenEndpoint().exchangesOf(second)).as("never exchanged").isEmpty();
        assertThat(stateUses("public")).as("no copy left in the projector's schema").isEqualTo(-1);
    }

    /** Rows of {@code <schema>.oauth_state_uses}, or -1 when there is no such table. */
    private static long stateUses(String schema) throws Exception {
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement(
                "select to_regclass(? || '.oauth_state_uses') is not null")) {
            s.setString(1, schema);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                if (!rs.getBoolean(1)) {
                    return -1;
                }
            }
        }
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement(
                "select count(*) from " + schema + ".oauth_state_uses"); ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void badExpiredForeignAndMisdirectedStatesAreRefusedBeforeAnyExchange() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String state = query(start(ws.ownerJwt(), ws.id(), "issue_tracker")).get("state");

        // a sealed state altered on its way (one byte flipped), and one signed and sealed under another key
        byte[] sealed = Base64.getUrlDecoder().decode(state.substring("v1.".length()));
        sealed[sealed.length / 2] ^= 1;
        String altered = "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(sealed);
        BROWSER.put(altered, BROWSER.get(state));
        byte[] otherKey = new byte[32];
        new java.security.SecureRandom().nextBytes(otherKey);
        String foreignKey = forge(ws.id(), ws.ownerId(), "issue_tracker", Instant.now().plusSeconds(300),
                Base64.getEncoder().encodeToString(otherKey));
        for (String bad : List.of(altered, foreignKey)) {
            var refused = callback(IT_CALLBACK, "code=ok-never&state=" + enc(bad));
            assertThat(refused.status()).as(refused.rawBody()).isEqualTo(400);
            assertThat(refused.text("error")).isEqualTo("state signature is invalid");
        }
        assertThat(callback(IT_CALLBACK, "code=ok-never&state=not-a-jwt").text("error")).isEqualTo("state is not a valid OAuth state");
        // a user JWT (another key, another type) is no state
        assertThat(callback(IT_CALLBACK, "code=ok-never&state=" + ws.ownerJwt()).status()).isEqualTo(400);

        // signed with the gateway's own key, but expired
        String expired = forge(ws.id(), ws.ownerId(), "issue_tracker", Instant.now().minusSeconds(1));
        var late = callback(IT_CALLBACK, "code=ok-never&state=" + enc(expired));
        assertThat(late.status()).isEqualTo(400);
        assertThat(late.text("error")).isEqualTo("state has expired: start the connection again");

        // the issue tracker's state at the code host's callback
        var misdirected = callback(CH_CALLBACK, "code=ok-never&state=" + enc(state));
        assertThat(misdirected.status()).isEqualTo(400);
        assertThat(misdirected.text("error")).isEqualTo("state was issued for the issue_tracker tool, not for this callback");

        // a validly signed state for a workspace its admin does not administer
        TestWorkspace other = GatewayHarness.newWorkspace();
        String foreign = forge(other.id(), ws.ownerId(), "issue_tracker", Instant.now().plusSeconds(300));
        var notTheirs = callback(IT_CALLBACK, "code=ok-never&state=" + enc(foreign));
        assertThat(notTheirs.status()).isEqualTo(403);
        assertThat(notTheirs.text("error")).startsWith("The admin who started this connection is no longer admin or owner");
        var startElsewhere = startResponse(ws.ownerJwt(), other.id(), "issue_tracker");
        assertThat(startElsewhere.statusCode()).isEqualTo(403);

        var missingState = callback(IT_CALLBACK, "code=ok-never");
        assertThat(missingState.status()).isEqualTo(400);
        assertThat(missingState.text("error")).isEqualTo("state is required");
        var missingCode = callback(IT_CALLBACK, "state=" + enc(state));
        assertThat(missingCode.status()).isEqualTo(400);
        assertThat(missingCode.text("error")).isEqualTo("code is required");

        assertThat(tokenEndpoint().exchangesOf("ok-never")).isEmpty();
        assertThat(sealedToken(ws, "issue_tracker")).isEmpty();
        assertThat(sealedToken(other, "issue_tracker")).isEmpty();
    }

    @Test
    void theStateIsSealedAndOnlyTheBrowserThatStartedTheFlowCanFinishIt() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        HttpResponse<String> started = await().atMost(PROJECTED)
                .until(() -> startResponse(ws.ownerJwt(), ws.id(), "issue_tracker"), r -> r.statusCode() != 403);
        String setCookie = started.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("gateway_oauth_issue_tracker=")).findFirst().orElseThrow();
        assertThat(setCookie).containsIgnoringCase("HttpOnly").contains("SameSite=Lax")
                .contains("Path=/functions/v1/issue-tracker-oauth-callback").contains("Max-Age=");
        URI location = URI.create(started.headers().firstValue("Location").orElseThrow());
        String state = query(location).get("state");

        // the upstream (and anyone who sees the URL) learns nothing from the state: no workspace, no admin
        assertThat(state).startsWith("v1.").doesNotContain(".ey");
        String decoded = new String(Base64.getUrlDecoder().decode(state.substring(3)), StandardCharsets.ISO_8859_1);
        for (String text : List.of(location.toString(), state, decoded)) {
            assertThat(text).doesNotContain(ws.id()).doesNotContain(ws.ownerId()).doesNotContain(ws.ownerEmail())
                    .doesNotContain("workspace_id");
        }

        String code = tokenEndpoint().grant("lin_oauth_browser_" + UUID.randomUUID());
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        // without the cookie, and with another browser's, the state is refused before anything is spent or exchanged
        for (String wrong : java.util.Arrays.asList(null, "gateway_oauth_issue_tracker=" + OAuthTokenEndpoint.class.getName(),
                "gateway_oauth_code_host=" + cookie.substring(cookie.indexOf('=') + 1))) {
            var refused = callbackWithCookie(IT_CALLBACK, "code=" + code + "&state=" + enc(state), wrong);
            assertThat(refused.status()).as(String.valueOf(wrong)).isEqualTo(400);
            assertThat(refused.text("error")).startsWith("state was not issued to this browser");
        }
        assertThat(tokenEndpoint().exchangesOf(code)).isEmpty();
        assertThat(sealedToken(ws, "issue_tracker")).isEmpty();

        // the browser that started it finishes it, and the cookie is cleared
        var connected = callbackWithCookie(IT_CALLBACK, "code=" + code + "&state=" + enc(state), cookie);
        assertThat(connected.status()).as(connected.rawBody()).isEqualTo(200);
    }

    @Test
    void anAdminDemotedBetweenStartAndCallbackConnectsNothing() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String admin = "admin-" + UUID.randomUUID();
        String adminJwt = GatewayHarness.jwt(admin, admin + "@test.local");
        setRole(ws, admin, "admin");
        await().atMost(PROJECTED).until(() -> startResponse(adminJwt, ws.id(), "code_host").statusCode() == 302);
        String state = query(start(adminJwt, ws.id(), "code_host")).get("state");

        setRole(ws, admin, "member");
        await().atMost(PROJECTED).until(() -> startResponse(adminJwt, ws.id(), "code_host").statusCode() == 403);
        var refused = callback(CH_CALLBACK, "code=ok-demoted&state=" + enc(state));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(tokenEndpoint().exchangesOf("ok-demoted")).isEmpty();
        assertThat(sealedToken(ws, "code_host")).isEmpty();
    }

    @Test
    void deniedConsentAndFailingTokenEndpointsStoreNothing() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(put(ws, "issue_tracker", Map.of("config", Map.of("team_id", "team-1"))).status()).isEqualTo(200);
        await().atMost(PROJECTED).until(() -> tool(ws, "issue_tracker").status() == 200);

        String denied = query(start(ws.ownerJwt(), ws.id(), "issue_tracker")).get("state");
        var refusal = callback(IT_CALLBACK, "error=access_denied&error_description=The+user+said+no&state=" + enc(denied));
        assertThat(refusal.status()).isEqualTo(400);
        assertThat(refusal.text("error")).isEqualTo("Consent was denied at the issue tracker (access_denied): nothing was stored");
        assertThat(callback(IT_CALLBACK, "code=ok-after-denial&state=" + enc(denied)).status()).as("spent").isEqualTo(409);

        Map<String, Integer> statusByCode = new LinkedHashMap<>();
        statusByCode.put("http-400", 502);
        statusByCode.put("http-401", 502);
        statusByCode.put("http-500", 502);
        statusByCode.put("http-503", 502);
        statusByCode.put("garbage", 502);
        statusByCode.put("error-200", 502);
        statusByCode.put("slow", 504);
        Map<String, String> errors = new LinkedHashMap<>();
        statusByCode.forEach((code, status) -> {
            String state = query(start(ws.ownerJwt(), ws.id(), "issue_tracker")).get("state");
            long started = System.nanoTime();
            var failed = callback(IT_CALLBACK, "code=" + code + "&state=" + enc(state));
            assertThat(failed.status()).as(code + ": " + failed.rawBody()).isEqualTo(status);
            assertThat(failed.body().get("ok").booleanValue()).isFalse();
            assertThat(failed.text("correlationId")).isNotBlank();
            assertThat(failed.rawBody()).as("no upstream body echoed").doesNotContain("echoing").doesNotContain("<html>");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(OAuthTokenEndpoint.SLOW));
            errors.put(code, failed.text("error"));
        });
        assertThat(errors).containsEntry("http-400",
                        "The issue tracker's token endpoint refused the code (HTTP 400): nothing was stored")
                .containsEntry("http-500", "The issue tracker's token endpoint refused the code (HTTP 500): nothing was stored")
                .containsEntry("garbage", "The issue tracker's token endpoint answered without an access token: nothing was stored")
                .containsEntry("error-200",
                        "The issue tracker's token endpoint refused the code (bad_verification_code): nothing was stored")
                .containsEntry("slow", "The issue tracker's token endpoint did not answer in time: nothing was stored");

        // a change after all of them, in log order: once it shows, anything they had stored would show too
        assertThat(put(ws, "issue_tracker", Map.of("config", Map.of("team_id", "team-2"))).status()).isEqualTo(200);
        JsonNode shown = await().atMost(PROJECTED).until(() -> tool(ws, "issue_tracker").body(),
                body -> "team-2".equals(body.at("/config/team_id").asString()));
        assertThat(shown.get("accessTokenSet").booleanValue()).isFalse();
        assertThat(sealedToken(ws, "issue_tracker")).isEmpty();
    }

    @Test
    void theStartIsForAdminsAndTheOAuthTools() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String member = "member-" + UUID.randomUUID();
        setRole(ws, member, "member");
        String memberJwt = GatewayHarness.jwt(member, member + "@test.local");
        await().atMost(PROJECTED).until(() -> client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/members",
                ws.ownerJwt(), null).rawBody().contains(member));

        assertThat(startResponse(null, ws.id(), "code_host").statusCode()).isEqualTo(401);
        var forbidden = startResponse(memberJwt, ws.id(), "code_host");
        assertThat(forbidden.statusCode()).isEqualTo(403);
        assertThat(forbidden.body()).contains("Admin or owner role required");
        var mcp = startResponse(ws.ownerJwt(), ws.id(), "mcp");
        assertThat(mcp.statusCode()).isEqualTo(400);
        assertThat(mcp.body()).contains("OAuth connect is only for the code_host and issue_tracker tools");
        var started = startResponse(ws.ownerJwt(), ws.id(), "code_host");
        assertThat(started.headers().firstValue("Cache-Control")).contains("no-store");
        assertThat(started.body()).contains("\"authorizeUrl\"");
        assertThat(client().send("POST", CH_CALLBACK, null, null).status()).isEqualTo(405);
    }

    // --- helpers ---

    /** The start, once the admin's membership is projected (a workspace created a moment ago may not show it yet). */
    private static URI start(String jwt, String workspaceId, String tool) {
        HttpResponse<String> response = await().atMost(PROJECTED)
                .until(() -> startResponse(jwt, workspaceId, tool), r -> r.statusCode() != 403);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(302);
        URI location = URI.create(response.headers().firstValue("Location").orElseThrow());
        // the browser keeps the flow cookie the start set; the callback brings it back (issue 16)
        String setCookie = response.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("gateway_oauth_" + tool + "=")).findFirst().orElseThrow();
        BROWSER.put(query(location).get("state"), setCookie.substring(0, setCookie.indexOf(';')));
        return location;
    }

    /** The flow cookie each state's browser holds (state → {@code name=value}), as a browser's cookie jar would. */
    private static final Map<String, String> BROWSER = new java.util.concurrent.ConcurrentHashMap<>();

    private static HttpResponse<String> startResponse(String jwt, String workspaceId, String tool) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl()
                + "/admin/v1/workspaces/" + workspaceId + "/tools/" + tool + "/oauth/start")).timeout(Duration.ofSeconds(30));
        if (jwt != null) {
            request.header("Authorization", "Bearer " + jwt);
        }
        try {
            return NO_REDIRECTS.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The callback from the browser that started the flow of the query's state (its cookie, when it has one). */
    private static GatewayHttpClient.Response callback(String path, String query) {
        String state = query(URI.create("http://x/?" + query)).get("state");
        String cookie = state == null ? null : BROWSER.get(state);
        return callbackWithCookie(path, query, cookie);
    }

    private static GatewayHttpClient.Response callbackWithCookie(String path, String query, String cookie) {
        return cookie == null
                ? client().send("GET", path + "?" + query, null, null)
                : client().send("GET", path + "?" + query, null, null, Map.of("Cookie", cookie));
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : uri.getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /**
     * A state as the gateway signs and seals it, with the gateway's own key: only the claims are the test's. Its
     * browser's cookie is registered for {@link #callback}.
     */
    private static String forge(String workspaceId, String userId, String tool, Instant expiresAt) throws Exception {
        return forge(workspaceId, userId, tool, expiresAt, GatewayHarness.gateway().secrets().oauthStateKey());
    }

    private static String forge(String workspaceId, String userId, String tool, Instant expiresAt, String stateKey)
            throws Exception {
        String cookieValue = UUID.randomUUID().toString();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .claim("browser", java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(cookieValue.getBytes(StandardCharsets.UTF_8))))
                .issuer("agent-action-gateway/oauth-state")
                .subject(userId)
                .claim("workspace_id", workspaceId)
                .claim("tool", tool)
                .claim("redirect_uri", GatewayHarness.gateway().baseUrl() + IT_CALLBACK)
                .jwtID(UUID.randomUUID().toString())
                .issueTime(Date.from(expiresAt.minusSeconds(600)))
                .expirationTime(Date.from(expiresAt))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(new JOSEObjectType("oauth-state+jwt")).build(),
                claims);
        byte[] key = Base64.getDecoder().decode(stateKey);
        jwt.sign(new MACSigner(key));
        // sealed as the gateway seals it: SecretBox under SHA-256(label || state key)
        java.security.MessageDigest sha256 = java.security.MessageDigest.getInstance("SHA-256");
        sha256.update("agent-action-gateway/oauth-state/seal/v1".getBytes(StandardCharsets.UTF_8));
        String state = io.agentgateway.schemas.secret.SecretBox.fromBase64Key(Base64.getEncoder().encodeToString(sha256.digest(key)))
                .seal(jwt.serialize());
        BROWSER.put(state, "gateway_oauth_" + tool + "=" + cookieValue);
        return state;
    }

    private static GatewayHttpClient.Response put(TestWorkspace ws, String tool, Map<String, Object> body) {
        return client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/" + tool, ws.ownerJwt(), body);
    }

    private static GatewayHttpClient.Response tool(TestWorkspace ws, String tool) {
        return client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/tools/" + tool, ws.ownerJwt(), null);
    }

    private static void setRole(TestWorkspace ws, String userId, String role) {
        var set = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/" + userId, ws.ownerJwt(),
                Map.of("email", userId + "@test.local", "role", role));
        assertThat(set.status()).as(set.rawBody()).isEqualTo(200);
    }

    private static Optional<String> sealedToken(TestWorkspace ws, String tool) throws Exception {
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement(
                "select sealed_access_token from tool_connections where workspace_id = ?::uuid and tool = ?")) {
            s.setString(1, ws.id());
            s.setString(2, tool);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        }
    }
}
