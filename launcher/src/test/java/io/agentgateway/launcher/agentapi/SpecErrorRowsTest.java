package io.agentgateway.launcher.agentapi;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.DevJwts;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Issue test 4: every error row of spec section 7 for evaluate-action and kill-switch. */
class SpecErrorRowsTest {
    private static final String EVALUATE = "/functions/v1/evaluate-action";
    private static final String KILL_SWITCH = "/functions/v1/kill-switch";
    private static TestWorkspace ws;

    @BeforeAll
    static void workspace() {
        ws = GatewayHarness.newWorkspace();
    }

    private static void assertError(GatewayHttpClient.Response r, int status, String errorContains) {
        assertThat(r.status()).as(r.rawBody()).isEqualTo(status);
        assertThat(r.body().get("ok").asBoolean()).isFalse();
        assertThat(r.text("error")).contains(errorContains);
    }

    @Test
    void evaluateActionRejectsAToolOutsideTheSix() {
        assertError(client().send("POST", EVALUATE, ws.apiKey(), Map.of("tool", "jira", "action", "issue.create", "riskLevel", "low")),
                400, "tool must be one of");
        assertError(client().send("POST", EVALUATE, ws.apiKey(), Map.of("action", "issue.create", "riskLevel", "low")),
                400, "tool must be one of");
    }

    @Test
    void evaluateActionRejectsAnUnknownRiskLevel() {
        var r = client().send("POST", EVALUATE, ws.apiKey(), Map.of("tool", "chat", "action", "message.send", "riskLevel", "severe"));
        assertError(r, 400, "riskLevel must be one of");
        assertThat(r.text("error")).contains("low", "medium", "high", "critical");
    }

    @Test
    void evaluateActionRejectsAMissingOrEmptyAction() {
        assertError(client().send("POST", EVALUATE, ws.apiKey(), Map.of("tool", "chat", "riskLevel", "low")),
                400, "action must be a non-empty string");
        assertError(client().send("POST", EVALUATE, ws.apiKey(), Map.of("tool", "chat", "action", "", "riskLevel", "low")),
                400, "action must be a non-empty string");
    }

    @Test
    void evaluateActionRejectsBadExpiredRevokedAndUnscopedKeys() {
        Map<String, Object> body = Map.of("tool", "chat", "action", "message.send", "riskLevel", "low");
        assertError(client().send("POST", EVALUATE, null, body), 401, "Invalid or expired API key");
        assertError(client().send("POST", EVALUATE, "agk_not-a-real-key", body), 401, "Invalid or expired API key");
        String forged = ws.apiKey().substring(0, ws.apiKey().length() - 4) + "AAAA";
        assertError(client().send("POST", EVALUATE, forged, body), 401, "Invalid or expired API key");

        String keys = "/admin/v1/workspaces/" + ws.id() + "/api-keys";
        var mcpOnly = client().send("POST", keys, ws.ownerJwt(), Map.of("name", "mcp only", "scopes", List.of("mcp")));
        assertThat(mcpOnly.status()).isEqualTo(201);
        assertError(client().send("POST", EVALUATE, mcpOnly.text("key"), body), 401, "Invalid or expired API key");

        var shortLived = client().send("POST", keys, ws.ownerJwt(), Map.of("name", "short", "scopes", List.of("evaluate"),
                "expiresAt", java.time.Instant.now().plus(Duration.ofSeconds(2)).toString()));
        assertThat(shortLived.status()).isEqualTo(201);
        assertThat(client().send("POST", EVALUATE, shortLived.text("key"), body).status()).isEqualTo(200);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertError(client().send("POST", EVALUATE, shortLived.text("key"), body), 401, "Invalid or expired API key"));

        var revocable = client().send("POST", keys, ws.ownerJwt(), Map.of("name", "revocable", "scopes", List.of("evaluate")));
        assertThat(client().send("POST", EVALUATE, revocable.text("key"), body).status()).isEqualTo(200);
        assertThat(client().send("DELETE", keys + "/" + revocable.text("keyId"), ws.ownerJwt(), null).status()).isIn(200, 204);
        assertError(client().send("POST", EVALUATE, revocable.text("key"), body), 401, "Invalid or expired API key");
    }

    @Test
    void evaluateActionAcceptsOnlyPost() {
        for (String method : List.of("GET", "PUT", "DELETE", "PATCH")) {
            var r = client().send(method, EVALUATE, ws.apiKey(), null);
            assertThat(r.status()).as(method).isEqualTo(405);
            assertThat(r.body().get("ok").asBoolean()).isFalse();
        }
    }

    @Test
    void evaluateActionAnswersMalformedJsonWithA400() {
        assertError(client().send("POST", EVALUATE, ws.apiKey(), "{not json"), 400, "JSON");
    }

    @Test
    void killSwitchRejectsAnUnsupportedActionAndAnInvalidPayload() {
        assertError(client().send("POST", KILL_SWITCH, ws.ownerJwt(), Map.of("workspaceId", ws.id(), "action", "explode")),
                400, "Unsupported action");
        assertError(client().send("POST", KILL_SWITCH, ws.ownerJwt(), Map.of("action", "enable")), 400, "workspaceId");
        assertError(client().send("POST", KILL_SWITCH, ws.ownerJwt(), "[1,2]"), 400, "");
        assertError(client().send("POST", KILL_SWITCH, ws.ownerJwt(), Map.of("workspaceId", ws.id(), "action", "pause_tool")),
                400, "tool");
        assertError(client().send("POST", KILL_SWITCH, ws.ownerJwt(),
                Map.of("workspaceId", ws.id(), "action", "pause_tool", "tool", "fax")), 400, "tool");
    }

    @Test
    void killSwitchRequiresAuthentication() {
        Map<String, Object> body = Map.of("workspaceId", ws.id(), "action", "enable");
        assertError(client().send("POST", KILL_SWITCH, null, body), 401, "");
        assertError(client().send("POST", KILL_SWITCH, "not.a.jwt", body), 401, "");
        String expired = DevJwts.sign(GatewayHarness.gateway().secrets().jwtSecret(), ws.ownerId(), ws.ownerEmail(), Duration.ofSeconds(-60));
        assertError(client().send("POST", KILL_SWITCH, expired, body), 401, "");
        String wrongKey = DevJwts.sign("another-secret-another-secret-another-secret!!", ws.ownerId(), ws.ownerEmail(), Duration.ofHours(1));
        assertError(client().send("POST", KILL_SWITCH, wrongKey, body), 401, "");
    }

    @Test
    void killSwitchRequiresTheAdminOrOwnerRole() {
        String stranger = GatewayHarness.jwt("stranger", "stranger@test.local");
        assertError(client().send("POST", KILL_SWITCH, stranger, Map.of("workspaceId", ws.id(), "action", "enable")),
                403, "Admin or owner role required");
        var member = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/plain-member", ws.ownerJwt(),
                Map.of("email", "member@test.local", "role", "member"));
        assertThat(member.status()).isIn(200, 201);
        String memberJwt = GatewayHarness.jwt("plain-member", "member@test.local");
        assertError(client().send("POST", KILL_SWITCH, memberJwt, Map.of("workspaceId", ws.id(), "action", "enable")),
                403, "Admin or owner role required");
        var admin = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/an-admin", ws.ownerJwt(),
                Map.of("email", "admin@test.local", "role", "admin"));
        assertThat(admin.status()).isIn(200, 201);
        String adminJwt = GatewayHarness.jwt("an-admin", "admin@test.local");
        var paused = client().send("POST", KILL_SWITCH, adminJwt, Map.of("workspaceId", ws.id(), "action", "pause_tool", "tool", "docs"));
        assertThat(paused.status()).isEqualTo(200);
        assertThat(client().send("POST", KILL_SWITCH, adminJwt, Map.of("workspaceId", ws.id(), "action", "resume_tool", "tool", "docs")).status())
                .isEqualTo(200);
    }

    @Test
    void killSwitchAcceptsOnlyPost() {
        for (String method : List.of("GET", "PUT", "DELETE")) {
            var r = client().send(method, KILL_SWITCH, ws.ownerJwt(), null);
            assertThat(r.status()).as(method).isEqualTo(405);
            assertThat(r.body().get("ok").asBoolean()).isFalse();
        }
    }
}
