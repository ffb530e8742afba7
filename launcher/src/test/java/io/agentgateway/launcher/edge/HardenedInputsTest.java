package io.agentgateway.launcher.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.schemas.GatewayJson;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Issue 14, finding 7 (and the timestamps of finding 1), against the whole gateway. */
class HardenedInputsTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String OUT_OF_RANGE = "+999999999-01-01T00:00:00Z";

    @Test
    void responsesShowingASecretAndEveryOtherAnswerOfTheGatewayAreNotToBeStored() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        HttpResponse<String> issued = send("POST", "/admin/v1/workspaces/" + ws.id() + "/api-keys", ws.ownerJwt(),
                "{\"name\":\"no-store\",\"scopes\":[\"evaluate\"]}");
        assertThat(issued.statusCode()).isEqualTo(201);
        assertThat(issued.headers().firstValue("Cache-Control")).contains("no-store");

        assertThat(send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/code_host", ws.ownerJwt(),
                "{\"config\":{\"repos\":[\"acme/no-store\"]}}").statusCode()).isEqualTo(200);
        HttpResponse<String> rotated = send("POST", "/admin/v1/workspaces/" + ws.id() + "/tools/code_host/webhook-secret",
                ws.ownerJwt(), null);
        assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
        assertThat(rotated.headers().firstValue("Cache-Control")).contains("no-store");

        for (HttpResponse<String> other : List.of(send("GET", "/admin/v1/workspaces/" + ws.id() + "/audit-log", ws.ownerJwt(), null),
                send("POST", "/functions/v1/evaluate-action", ws.apiKey(), "{\"tool\":\"docs\",\"action\":\"a.b\",\"riskLevel\":\"low\"}"),
                send("GET", "/functions/v1/nowhere", null, null))) {
            assertThat(other.headers().firstValue("Cache-Control")).as(other.uri().getPath()).contains("no-store");
        }
    }

    @Test
    void aHundredKilobyteActionOrNameIsA400NamingTheFieldAndItsLimit() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String huge = "x".repeat(100_000);

        var action = GatewayHarness.evaluate(ws, Map.of("tool", "docs", "action", huge, "riskLevel", "low"));
        assertThat(action.status()).isEqualTo(400);
        assertThat(action.text("error")).isEqualTo("action must be a string of at most 256 characters");

        var policy = GatewayHarness.client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(),
                Map.of("name", huge, "priority", 1, "decision", "block"));
        assertThat(policy.status()).isEqualTo(400);
        assertThat(policy.text("error")).isEqualTo("name must be a string of at most 256 characters");

        var description = GatewayHarness.client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(),
                Map.of("name", "ok", "priority", 1, "decision", "block", "description", huge));
        assertThat(description.text("error")).isEqualTo("description must be a string of at most 2000 characters");

        var match = GatewayHarness.client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(),
                Map.of("name", "ok", "priority", 1, "decision", "block", "match", Map.of("agentIds", List.of("a", huge))));
        assertThat(match.text("error")).isEqualTo("match.agentIds[1] must be a string of at most 256 characters");

        var workspace = GatewayHarness.client().send("POST", "/admin/v1/workspaces", GatewayHarness.gateway().operatorJwt(),
                Map.of("name", huge, "ownerUserId", "owner-of-a-long-name"));
        assertThat(workspace.status()).isEqualTo(400);
        assertThat(workspace.text("error")).isEqualTo("name must be a string of at most 256 characters");

        HttpResponse<String> mcp = send("POST", "/functions/v1/mcp-gate/sse", ws.apiKey(),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + huge + "\"}}");
        JsonNode rpc = GatewayJson.MAPPER.readTree(mcp.body());
        assertThat(rpc.at("/error/code").intValue()).isEqualTo(-32602);
        assertThat(rpc.at("/error/message").asString()).isEqualTo("params.name must be a string of at most 256 characters");
    }

    @Test
    void timestampsADatabaseCannotHoldAreA400NotA500() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String far = URLEncoder.encode(OUT_OF_RANGE, StandardCharsets.UTF_8);
        String base = "/admin/v1/workspaces/" + ws.id();
        String range = "from must be an ISO-8601 timestamp between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z";

        assertThat(GatewayHarness.client().send("GET", base + "/audit-log?from=" + far, ws.ownerJwt(), null).text("error"))
                .isEqualTo(range);
        var export = GatewayHarness.client().send("GET", base + "/audit-log/export?from=" + far + "&to=" + far, ws.ownerJwt(), null);
        assertThat(export.status()).isEqualTo(400);
        assertThat(export.text("error")).isEqualTo(range);
        String cursor = Base64.getUrlEncoder().withoutPadding().encodeToString(
                (OUT_OF_RANGE + "|" + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8));
        assertThat(GatewayHarness.client().send("GET", base + "/audit-log?cursor=" + cursor, ws.ownerJwt(), null).text("error"))
                .isEqualTo("cursor is invalid");
        var key = GatewayHarness.client().send("POST", base + "/api-keys", ws.ownerJwt(),
                Map.of("name", "far", "scopes", List.of("evaluate"), "expiresAt", OUT_OF_RANGE));
        assertThat(key.status()).isEqualTo(400);
        assertThat(key.text("error")).startsWith("expiresAt must be an ISO-8601 timestamp between");
        var backtest = GatewayHarness.client().send("POST", base + "/backtests", ws.ownerJwt(),
                Map.of("policies", List.of(), "from", OUT_OF_RANGE));
        assertThat(backtest.status()).as(backtest.rawBody()).isEqualTo(400);

        // an approval TTL of millions of hours was accepted, and every approval of the workspace then failed
        var ttl = GatewayHarness.client().send("PUT", base + "/defaults", ws.ownerJwt(), Map.of("approvalTtl", "PT2562047788015215H"));
        assertThat(ttl.status()).isEqualTo(400);
        assertThat(ttl.text("error")).isEqualTo("approvalTtl must be at most P366D");
        assertThat(GatewayHarness.evaluate(ws, GatewayHarness.action("code_host", "pull_request.merge", "low")).text("decision"))
                .isEqualTo("require_approval");
    }

    @Test
    void aUserJwtIssuedFurtherAheadThanTheClockSkewIsRefused() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(ws.ownerId()).claim("email", ws.ownerEmail())
                .issueTime(Date.from(now.plus(Duration.ofHours(2)))).expirationTime(Date.from(now.plus(Duration.ofHours(3)))).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        jwt.sign(new MACSigner(GatewayHarness.gateway().secrets().jwtSecret().getBytes(StandardCharsets.UTF_8)));

        // the same user's current token reads the members (once the projector has the new workspace)
        await().atMost(Duration.ofSeconds(20)).until(() -> GatewayHarness.client()
                .send("GET", "/admin/v1/workspaces/" + ws.id() + "/members", ws.ownerJwt(), null).status() == 200);
        var refused = GatewayHarness.client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/members", jwt.serialize(), null);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.text("error")).isEqualTo("Invalid or expired token");
    }

    @Test
    void theDataDirectoryAndItsFilesArePrivateToTheUser() throws Exception {
        Path dataDir = GatewayHarness.gateway().settings().dataDir();
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dataDir.resolve("streams")));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve("secrets.properties"))))
                .isEqualTo("rw-------");
    }

    private static HttpResponse<String> send(String method, String path, String bearer, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
