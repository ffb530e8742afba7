package io.agentgateway.launcher.admin;

import static io.agentgateway.launcher.support.GatewayHarness.action;
import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.RecordingUpstream;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.HeldHttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issues 3 and 4 through the running gateway: a require_approval decision opens an approval that an
 * admin reviews through the admin API (a command through the decision stream); an approved held HTTP
 * request is sent by the gateway exactly once and its response is the approval's executionResult on
 * the status endpoint; rejection, expiry and every refusal answer with their statuses.
 */
class ApprovalFlowTest {
    private static final Duration PROJECTED = Duration.ofSeconds(20);

    private static GatewayHttpClient.Response status(TestWorkspace ws, String approvalId) {
        return client().send("GET", "/functions/v1/mcp-gate/status/" + approvalId, ws.apiKey(), null);
    }

    private static JsonNode awaitStatus(TestWorkspace ws, String approvalId, String expected) {
        return await().atMost(PROJECTED).pollInterval(Duration.ofMillis(100))
                .until(() -> status(ws, approvalId), r -> r.status() == 200 && expected.equals(r.text("status"))).body();
    }

    private static GatewayHttpClient.Response review(TestWorkspace ws, String jwt, String approvalId, String verdict, Object body) {
        return client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approvalId + "/" + verdict, jwt, body);
    }

    private static String requireApproval(TestWorkspace ws) {
        var evaluation = evaluate(ws, action("docs", "page.publish", "high"));
        assertThat(evaluation.text("decision")).isEqualTo("require_approval");
        return evaluation.text("approvalRequestId");
    }

    private static HeldHttpRequest deployRequest(String marker) {
        return new HeldHttpRequest("POST", "/deployments/" + marker, "env=prod&note=%C3%A9",
                Map.of("content-type", List.of("application/json"), "x-request-id", List.of(marker)),
                Base64.getEncoder().encodeToString(("{\"service\":\"api\",\"marker\":\"" + marker + "\"}")
                        .getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void anApprovedEvaluationShowsTheReviewOnTheStatusEndpointAndCannotBeReviewedAgain() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String approvalId = requireApproval(ws);
        JsonNode pending = awaitStatus(ws, approvalId, "pending");
        assertThat(pending.get("ok").booleanValue()).isTrue();
        assertThat(pending.get("id").asString()).isEqualTo(approvalId);
        assertThat(pending.get("reviewedAt").isNull()).isTrue();
        assertThat(Instant.parse(pending.get("expiresAt").asString())).isAfter(Instant.now().plus(Duration.ofHours(23)));

        var listed = client().send("GET", "/admin/v1/workspaces/" + ws.id() + "/approvals?status=pending", ws.ownerJwt(), null);
        assertThat(listed.body().get("items").valueStream().map(i -> i.get("id").asString())).containsExactly(approvalId);

        var approved = review(ws, ws.ownerJwt(), approvalId, "approve", Map.of("reason", "reviewed the page"));
        assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);
        assertThat(approved.text("status")).isEqualTo("approved");

        JsonNode shown = awaitStatus(ws, approvalId, "approved");
        assertThat(shown.get("reviewedBy").asString()).isEqualTo(ws.ownerId());
        assertThat(shown.get("reviewReason").asString()).isEqualTo("reviewed the page");
        assertThat(Instant.parse(shown.get("reviewedAt").asString())).isBefore(Instant.now().plusSeconds(1));
        assertThat(shown.get("executionResult").isNull()).as("the agent makes an evaluated call itself").isTrue();

        for (String verdict : List.of("approve", "reject")) {
            var again = review(ws, ws.ownerJwt(), approvalId, verdict, null);
            assertThat(again.status()).as(again.rawBody()).isEqualTo(409);
            assertThat(again.text("error")).isIn("Approval request is approved, not pending", "Approval request is no longer pending");
        }
    }

    @Test
    void aRejectedApprovalIsRejected() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String approvalId = requireApproval(ws);
        var rejected = review(ws, ws.ownerJwt(), approvalId, "reject", Map.of("reason", "not today"));
        assertThat(rejected.status()).as(rejected.rawBody()).isEqualTo(200);
        JsonNode shown = awaitStatus(ws, approvalId, "rejected");
        assertThat(shown.get("reviewReason").asString()).isEqualTo("not today");
        assertThat(shown.get("reviewedBy").asString()).isEqualTo(ws.ownerId());
    }

    @Test
    void anApprovalPastItsExpiryIsExpiredAndCanNoLongerBeApproved() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        assertThat(client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/defaults", ws.ownerJwt(),
                Map.of("approvalTtl", "PT5S")).status()).isIn(200, 204);
        String approvalId = requireApproval(ws);
        JsonNode pending = awaitStatus(ws, approvalId, "pending");
        Instant expiresAt = Instant.parse(pending.get("expiresAt").asString());

        // shown expired once past expiresAt, before anyone touched it
        awaitStatus(ws, approvalId, "expired");
        var late = review(ws, ws.ownerJwt(), approvalId, "approve", null);
        assertThat(late.status()).as(late.rawBody()).isEqualTo(409);
        assertThat(late.text("error")).startsWith("Approval request expired at ");
        assertThat(Instant.parse(late.text("error").substring("Approval request expired at ".length()))).isEqualTo(expiresAt);

        // the stream's sweep expired it before the review was decided: the read model says so too, and so does every retry
        await().atMost(PROJECTED).untilAsserted(() -> {
            try (var c = GatewayHarness.db(); var s = c.prepareStatement("select status from approval_requests where id = ?::uuid")) {
                s.setString(1, approvalId);
                var rs = s.executeQuery();
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("expired");
            }
        });
        var again = review(ws, ws.ownerJwt(), approvalId, "approve", null);
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.text("error")).isEqualTo(late.text("error"));
    }

    @Test
    void anApprovedHeldRequestIsSentOnceAndItsResponseIsTheExecutionResult() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String marker = UUID.randomUUID().toString();
        String approvalId = ProxyStandIn.holdForApproval(ws, Tool.INTERNAL_API, "deploy.create", deployRequest(marker));
        awaitStatus(ws, approvalId, "pending");
        assertThat(GatewayHarness.upstream().requestsTo("/internal/deployments/" + marker)).as("nothing runs before approval").isEmpty();

        var approved = review(ws, ws.ownerJwt(), approvalId, "approve", Map.of("reason", "ship it"));
        assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);

        JsonNode executed = awaitStatus(ws, approvalId, "executed");
        JsonNode result = executed.get("executionResult");
        assertThat(result.get("content").get(0).get("type").asString()).isEqualTo("text");
        assertThat(GatewayJson.MAPPER.readTree(result.get("content").get(0).get("text").asString()).get("done").asString())
                .isEqualTo("/internal/deployments/" + marker);
        assertThat(result.get("httpStatus").intValue()).isEqualTo(200);
        assertThat(result.get("isError").booleanValue()).isFalse();
        assertThat(executed.get("reviewReason").asString()).isEqualTo("ship it");

        List<RecordingUpstream.Request> sent = GatewayHarness.upstream().requestsTo("/internal/deployments/" + marker);
        assertThat(sent).hasSize(1);
        RecordingUpstream.Request request = sent.get(0);
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.rawQuery()).isEqualTo("env=prod&note=%C3%A9");
        assertThat(request.body()).isEqualTo("{\"service\":\"api\",\"marker\":\"" + marker + "\"}");
        assertThat(request.headers().get("X-request-id")).containsExactly(marker);

        // the broker delivers the approval again: the call is not sent a second time
        ProxyStandIn.redeliverReview(ws.id(), approvalId);
        String probe = requireApproval(ws);
        awaitStatus(ws, probe, "pending");
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(GatewayHarness.upstream().requestsTo("/internal/deployments/" + marker)).hasSize(1);
            assertThat(status(ws, approvalId).text("status")).isEqualTo("executed");
        });
    }

    @Test
    void aHeldRequestThatCannotBeSentEndsFailedWithTheReason() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String approvalId = ProxyStandIn.holdForApproval(ws, Tool.CODE_HOST, "pull_request.merge",
                new HeldHttpRequest("PUT", "/repos/acme/api/pulls/1/merge", null, Map.of(), null));
        awaitStatus(ws, approvalId, "pending");
        assertThat(review(ws, ws.ownerJwt(), approvalId, "approve", null).status()).isEqualTo(200);

        JsonNode failed = awaitStatus(ws, approvalId, "failed");
        assertThat(failed.get("executionResult").get("isError").booleanValue()).isTrue();
        assertThat(failed.get("executionResult").get("content").get(0).get("text").asString())
                .isEqualTo("no upstream is configured for the tool code_host");
    }

    @Test
    void aRejectedHeldRequestIsNeverSent() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String marker = UUID.randomUUID().toString();
        String approvalId = ProxyStandIn.holdForApproval(ws, Tool.INTERNAL_API, "deploy.create", deployRequest(marker));
        awaitStatus(ws, approvalId, "pending");
        assertThat(review(ws, ws.ownerJwt(), approvalId, "reject", null).status()).isEqualTo(200);
        awaitStatus(ws, approvalId, "rejected");
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(GatewayHarness.upstream().requestsTo("/internal/deployments/" + marker)).isEmpty());
    }

    @Test
    void reviewsAreRefusedWithClearStatuses() {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String approvalId = requireApproval(ws);

        var anonymous = review(ws, null, approvalId, "approve", null);
        assertThat(anonymous.status()).isEqualTo(401);

        String memberId = "member-" + UUID.randomUUID();
        assertThat(client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/members/" + memberId, ws.ownerJwt(),
                Map.of("role", "member")).status()).isIn(200, 201);
        var member = review(ws, GatewayHarness.jwt(memberId, memberId + "@test.local"), approvalId, "approve", null);
        assertThat(member.status()).isEqualTo(403);
        // reviews are the one thing a reviewer may do besides an admin or owner: the stream's words say so
        assertThat(member.text("error")).isEqualTo("Reviewer, admin or owner role required");
        TestWorkspace other = GatewayHarness.newWorkspace();
        var stranger = review(ws, other.ownerJwt(), approvalId, "approve", null);
        assertThat(stranger.status()).as("an owner of another workspace").isEqualTo(403);

        var badId = review(ws, ws.ownerJwt(), "42", "approve", null);
        assertThat(badId.status()).isEqualTo(400);
        assertThat(badId.text("error")).isEqualTo("approvalId must be a uuid");
        var badReason = review(ws, ws.ownerJwt(), approvalId, "approve", Map.of("reason", List.of("x")));
        assertThat(badReason.status()).isEqualTo(400);

        var unknown = review(ws, ws.ownerJwt(), UUID.randomUUID().toString(), "approve", null);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.text("error")).isEqualTo("Approval request not found");
        // another workspace's approval is not found from this one, not even for its owner
        var elsewhere = client().send("POST", "/admin/v1/workspaces/" + other.id() + "/approvals/" + approvalId + "/approve",
                other.ownerJwt(), null);
        assertThat(elsewhere.status()).isEqualTo(404);

        awaitStatus(ws, approvalId, "pending");
        assertThat(status(ws, approvalId).text("status")).as("none of this reviewed it").isEqualTo("pending");
        assertThat(status(other, approvalId).status()).isEqualTo(404);
    }
}
