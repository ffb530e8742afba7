package io.agentgateway.ingress.approval;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.ingress.auth.ApiKeys;
import io.agentgateway.ingress.support.RunningIngress;
import io.agentgateway.ingress.support.SharedIngress;
import io.agentgateway.ingress.support.TestHttp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ApprovalStatusTest {
    private static final String PATH = "/functions/v1/mcp-gate/status/";
    private static final Instant LATER = Instant.now().plus(Duration.ofHours(1));

    private static RunningIngress ingress;
    private UUID workspace;
    private String key;

    @BeforeAll
    static void startIngress() {
        ingress = SharedIngress.ingress();
    }

    @BeforeEach
    void workspaceWithKey() {
        workspace = ingress.rows.workspace("approvals");
        key = ApiKeys.generate(workspace);
        ingress.rows.apiKey(workspace, ApiKeys.hash(key), null, null, "mcp");
    }

    private TestHttp.Response status(String approvalId, String apiKey) {
        return ingress.http.get(PATH + approvalId).bearer(apiKey).send();
    }

    @Test
    void anExecutedApprovalShowsTheReviewAndTheResult() {
        UUID approval = ingress.rows.approval(workspace, "executed", LATER,
                "{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}");

        TestHttp.Response response = status(approval.toString(), key);

        assertThat(response.status()).isEqualTo(200);
        JsonNode json = response.json();
        assertThat(json.get("ok").booleanValue()).isTrue();
        assertThat(json.get("id").asString()).isEqualTo(approval.toString());
        assertThat(json.get("status").asString()).isEqualTo("executed");
        assertThat(json.get("reviewedAt").asString()).isEqualTo("2030-01-01T10:00:00Z");
        assertThat(json.get("reviewedBy").asString()).isEqualTo("reviewer-1");
        assertThat(json.get("reviewReason").asString()).isEqualTo("looks fine");
        assertThat(json.get("executionResult").get("content").get(0).get("text").asString()).isEqualTo("done");
        assertThat(Instant.parse(json.get("expiresAt").asString())).isCloseTo(LATER, org.assertj.core.api.Assertions.within(1, java.time.temporal.ChronoUnit.SECONDS));
        assertThat(json.get("tool").asString()).isEqualTo("mcp");
        assertThat(json.get("action").asString()).isEqualTo("delete_repo");
        assertThat(json.get("riskLevel").asString()).isEqualTo("high");
        assertThat(json.get("createdAt").isString()).isTrue();
    }

    @Test
    void aPendingApprovalShowsNullReviewFields() {
        UUID approval = ingress.rows.approval(workspace, "pending", LATER, null);

        JsonNode json = status(approval.toString(), key).json();

        assertThat(json.get("status").asString()).isEqualTo("pending");
        assertThat(json.get("reviewedAt").isNull()).isTrue();
        assertThat(json.get("reviewedBy").isNull()).isTrue();
        assertThat(json.get("executionResult").isNull()).isTrue();
    }

    @Test
    void aPendingApprovalPastItsExpiryIsShownAsExpired() {
        UUID approval = ingress.rows.approval(workspace, "pending", Instant.now().minus(Duration.ofMinutes(1)), null);

        assertThat(status(approval.toString(), key).json().get("status").asString()).isEqualTo("expired");
    }

    @Test
    void anotherWorkspacesApprovalIsNotFound() {
        UUID otherWorkspace = ingress.rows.workspace("other");
        UUID theirs = ingress.rows.approval(otherWorkspace, "pending", LATER, null);

        TestHttp.Response response = status(theirs.toString(), key);

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.error()).isEqualTo("Approval request not found");
    }

    @Test
    void anUnknownApprovalIsNotFound() {
        TestHttp.Response response = status(UUID.randomUUID().toString(), key);

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.error()).isEqualTo("Approval request not found");
    }

    @Test
    void aMalformedIdIs400() {
        TestHttp.Response response = status("not-a-uuid", key);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.text()).contains("\"ok\":false").contains("\"error\":\"approvalId must be a uuid\"");
    }

    @Test
    void unknownRevokedExpiredAndMissingKeysAre401() {
        UUID approval = ingress.rows.approval(workspace, "pending", LATER, null);
        String unknown = ApiKeys.generate(workspace);
        String revoked = ApiKeys.generate(workspace);
        ingress.rows.apiKey(workspace, ApiKeys.hash(revoked), null, Instant.now().minusSeconds(5), "mcp");
        String expired = ApiKeys.generate(workspace);
        ingress.rows.apiKey(workspace, ApiKeys.hash(expired), Instant.now().minusSeconds(5), null, "mcp");

        for (String bad : new String[] {unknown, revoked, expired, "agk_garbage"}) {
            TestHttp.Response response = status(approval.toString(), bad);
            assertThat(response.status()).isEqualTo(401);
            assertThat(response.error()).isEqualTo("Invalid or expired API key");
        }
        assertThat(ingress.http.get(PATH + approval).send().status()).isEqualTo(401);
    }

    @Test
    void aKeyCannotClaimAnotherWorkspace() {
        // a key whose hash is registered for workspace A, but whose text names workspace B, is no key of B
        UUID other = ingress.rows.workspace("other");
        String keyNamingOther = ApiKeys.generate(other);
        ingress.rows.apiKey(workspace, ApiKeys.hash(keyNamingOther), null, null, "mcp");
        UUID approval = ingress.rows.approval(other, "pending", LATER, null);

        assertThat(status(approval.toString(), keyNamingOther).status()).isEqualTo(401);
    }

    @Test
    void otherMethodsAre405() {
        TestHttp.Response response = ingress.http.post(PATH + UUID.randomUUID()).bearer(key).body("{}").send();

        assertThat(response.status()).isEqualTo(405);
        assertThat(response.headers().first("Allow")).isEqualTo("GET");
    }
}
