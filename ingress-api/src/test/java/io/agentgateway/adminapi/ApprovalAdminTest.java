package io.agentgateway.adminapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.ingresstestsupport.DecisionResponder;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.ingresstestsupport.TestTokens;
import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.ReviewApproval;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The reviewers' API: approve / reject are commands answered by the decision stream (here a
 * stand-in that answers as told), the list reads the projector's table.
 */
class ApprovalAdminTest {
    private static final Instant LATER = Instant.now().plus(Duration.ofHours(1));

    private static final RunningIngress ingress = SharedIngress.ingress();
    private static final DecisionResponder responder = SharedIngress.responder();
    private UUID workspace;
    private String base;
    private String owner;

    @BeforeEach
    void newWorkspace() {
        workspace = ingress.rows.workspace("approvals");
        ingress.rows.member(workspace, "owner-1", "owner");
        base = "/admin/v1/workspaces/" + workspace + "/approvals";
        owner = TestTokens.user("owner-1");
        responder.answer(workspace.toString(), DecisionResponder::ok);
    }

    private TestHttp.Response review(String approvalId, String verdict, String body) {
        TestHttp.Request request = ingress.http.post(base + "/" + approvalId + "/" + verdict).bearer(owner);
        return (body == null ? request : request.body(body)).send();
    }

    private ReviewApproval onlyReview() {
        List<CommandEnvelope> received = responder.received(workspace.toString());
        assertThat(received).hasSize(1);
        assertThat(received.get(0).actor().kind()).isEqualTo(ActorKind.USER);
        assertThat(received.get(0).actor().userId()).isEqualTo("owner-1");
        return (ReviewApproval) received.get(0).command();
    }

    @Test
    void approvingSendsTheReviewWithItsReason() {
        String approvalId = UUID.randomUUID().toString();
        TestHttp.Response response = review(approvalId, "approve", "{\"reason\":\"release window is open\"}");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("ok").booleanValue()).isTrue();
        assertThat(response.json().get("id").asString()).isEqualTo(approvalId);
        assertThat(response.json().get("status").asString()).isEqualTo("approved");
        assertThat(onlyReview()).isEqualTo(new ReviewApproval(approvalId, ReviewVerdict.APPROVE, "release window is open"));
    }

    @Test
    void rejectingNeedsNoBodyAndABlankReasonIsNone() {
        String approvalId = UUID.randomUUID().toString();
        TestHttp.Response response = review(approvalId, "reject", null);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("status").asString()).isEqualTo("rejected");
        assertThat(onlyReview()).isEqualTo(new ReviewApproval(approvalId, ReviewVerdict.REJECT, null));

        String other = UUID.randomUUID().toString();
        assertThat(review(other, "reject", "{\"reason\":\"  \"}").status()).isEqualTo(200);
        assertThat(responder.received(workspace.toString()).get(1).command())
                .isEqualTo(new ReviewApproval(other, ReviewVerdict.REJECT, null));
    }

    @Test
    void badRequestsAreRefusedBeforeAnythingIsSent() {
        String approvalId = UUID.randomUUID().toString();
        assertThat(ingress.http.post(base + "/" + approvalId + "/approve").send().status()).isEqualTo(401);
        assertThat(review("nope", "approve", null).error()).isEqualTo("approvalId must be a uuid");
        assertThat(ingress.http.post("/admin/v1/workspaces/acme/approvals/" + approvalId + "/approve").bearer(owner).send().error())
                .isEqualTo("workspaceId must be a uuid");
        for (String body : new String[] {"{\"reason\":42}", "{\"reason\":\"" + "x".repeat(2001) + "\"}"}) {
            TestHttp.Response response = review(approvalId, "approve", body);
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.error()).isEqualTo("reason must be a string of at most 2000 characters");
        }
        assertThat(review(approvalId, "approve", "{\"verdict\":\"reject\"}").error()).isEqualTo("unknown field: verdict");
        assertThat(review(approvalId, "approve", "[1]").error()).isEqualTo("Request body must be a JSON object");
        assertThat(ingress.http.get(base + "/" + approvalId + "/approve").bearer(owner).send().status()).isEqualTo(405);
        assertThat(responder.received(workspace.toString())).isEmpty();
    }

    @Test
    void theStreamsRefusalsBecomeTheirHttpStatus() {
        String approvalId = UUID.randomUUID().toString();
        responder.answer(workspace.toString(), e -> DecisionResponder.status(e, ReplyStatus.FORBIDDEN, "Admin or owner role required"));
        TestHttp.Response forbidden = review(approvalId, "approve", null);
        assertThat(forbidden.status()).isEqualTo(403);
        assertThat(forbidden.error()).isEqualTo("Admin or owner role required");

        responder.answer(workspace.toString(), e -> DecisionResponder.status(e, ReplyStatus.CONFLICT,
                "Approval request expired at 2030-01-01T10:00:00Z"));
        TestHttp.Response expired = review(approvalId, "approve", null);
        assertThat(expired.status()).isEqualTo(409);
        assertThat(expired.error()).isEqualTo("Approval request expired at 2030-01-01T10:00:00Z");
        assertThat(expired.json().get("correlationId").isString()).isTrue();
    }

    @Test
    void anApprovalTheStreamNoLongerHoldsIsAConflictWhenItEndedAndNotFoundOtherwise() {
        responder.answer(workspace.toString(), e -> DecisionResponder.status(e, ReplyStatus.NOT_FOUND, "Approval request not found"));
        UUID rejected = ingress.rows.approval(workspace, "rejected", LATER, null);
        UUID executed = ingress.rows.approval(workspace, "executed", LATER, "{\"content\":[]}");
        Instant lapsedAt = Instant.now().minus(Duration.ofMinutes(5)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        UUID lapsed = ingress.rows.approval(workspace, "pending", lapsedAt, null);
        UUID elsewhere = ingress.rows.approval(ingress.rows.workspace("other"), "rejected", LATER, null);

        assertThat(review(rejected.toString(), "approve", null)).satisfies(r -> {
            assertThat(r.status()).isEqualTo(409);
            assertThat(r.error()).isEqualTo("Approval request is rejected, not pending");
        });
        assertThat(review(executed.toString(), "reject", null).error()).isEqualTo("Approval request is executed, not pending");
        assertThat(review(lapsed.toString(), "approve", null).error())
                .as("past its expiry: the stream's sweep ended it before the review").isEqualTo("Approval request expired at " + lapsedAt);
        for (UUID missing : new UUID[] {elsewhere, UUID.randomUUID()}) {
            TestHttp.Response response = review(missing.toString(), "approve", null);
            assertThat(response.status()).isEqualTo(404);
            assertThat(response.error()).isEqualTo("Approval request not found");
        }
    }

    @Test
    void theListShowsWhatAReviewerNeedsNewestFirstAndFiltersByTheStatusAReaderSees() {
        UUID pending = ingress.rows.approval(workspace, "pending", LATER, null);
        Instant lapsedAt = Instant.now().minus(Duration.ofMinutes(5)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        UUID lapsed = ingress.rows.approval(workspace, "pending", lapsedAt, null);
        UUID executed = ingress.rows.approval(workspace, "executed", LATER, "{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}");
        ingress.rows.approval(ingress.rows.workspace("other"), "pending", LATER, null);

        JsonNode pendingOnly = ingress.http.get(base + "?status=pending").bearer(owner).send().json();
        assertThat(pendingOnly.get("ok").booleanValue()).isTrue();
        assertThat(ids(pendingOnly)).containsExactly(pending.toString());
        JsonNode item = pendingOnly.get("items").get(0);
        assertThat(item.get("tool").asString()).isEqualTo("mcp");
        assertThat(item.get("action").asString()).isEqualTo("delete_repo");
        assertThat(item.get("riskLevel").asString()).isEqualTo("high");
        assertThat(item.get("agentId").asString()).isEqualTo("agent-1");
        assertThat(item.get("expiresAt").isString()).isTrue();
        assertThat(item.get("reviewedBy").isNull()).isTrue();
        assertThat(item.has("sealedHeldCall")).isFalse();

        assertThat(ids(ingress.http.get(base + "?status=expired").bearer(owner).send().json())).containsExactly(lapsed.toString());
        JsonNode done = ingress.http.get(base + "?status=executed").bearer(owner).send().json();
        assertThat(ids(done)).containsExactly(executed.toString());
        assertThat(done.get("items").get(0).get("executionResult").get("content").get(0).get("text").asString()).isEqualTo("ok");
        assertThat(ids(ingress.http.get(base).bearer(owner).send().json()))
                .containsExactlyInAnyOrder(pending.toString(), lapsed.toString(), executed.toString());
        assertThat(ids(ingress.http.get(base + "?limit=1").bearer(owner).send().json())).hasSize(1);
    }

    @Test
    void theListIsForAdminsAndOwnersWithValidFilters() {
        ingress.rows.member(workspace, "member-1", "member");
        assertThat(ingress.http.get(base).send().status()).isEqualTo(401);
        TestHttp.Response member = ingress.http.get(base).bearer(TestTokens.user("member-1")).send();
        assertThat(member.status()).isEqualTo(403);
        assertThat(member.error()).isEqualTo("Admin or owner role required");
        assertThat(ingress.http.get(base).bearer(TestTokens.user("stranger")).send().status()).isEqualTo(403);

        TestHttp.Response badStatus = ingress.http.get(base + "?status=open").bearer(owner).send();
        assertThat(badStatus.status()).isEqualTo(400);
        assertThat(badStatus.error())
                .isEqualTo("status must be one of: pending, approved, rejected, expired, executing, executed, failed, cancelled, withdrawn");
        assertThat(ingress.http.get(base + "?limit=0").bearer(owner).send().error())
                .isEqualTo("limit must be an integer between 1 and 500");
    }

    private static List<String> ids(JsonNode page) {
        return page.get("items").valueStream().map(i -> i.get("id").asString()).toList();
    }
}
