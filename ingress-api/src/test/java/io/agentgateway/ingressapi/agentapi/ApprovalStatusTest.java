package io.agentgateway.ingressapi.agentapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.ingresstestsupport.DecisionResponder;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.Reply;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The status endpoint against the test's stand-in for the decision stream, which answers the endpoint's
 * {@code check_access}: the key in log order (the stream's authorizer, tested in the decision stream
 * module), and the approval while the stream holds it; the read model's row when it has one.
 */
class ApprovalStatusTest {
    private static final String PATH = "/functions/v1/mcp-gate/status/";
    private static final Instant LATER = Instant.now().plus(Duration.ofHours(1));

    private static final RunningIngress ingress = SharedIngress.ingress();
    private static final DecisionResponder responder = SharedIngress.responder();
    private UUID workspace;
    private String key;
    /** What the stand-in stream holds open, by approval id. */
    private final Map<String, ApprovalSnapshot> open = new ConcurrentHashMap<>();

    @BeforeEach
    void workspaceWithKey() {
        workspace = ingress.rows.workspace("approvals");
        key = ApiKeys.generate(workspace);
        String hash = ApiKeys.hash(key);
        responder.answer(workspace.toString(), envelope -> answer(envelope, hash));
    }

    private Reply answer(CommandEnvelope envelope, String validHash) {
        if (!(envelope.command() instanceof CheckAccess check) || envelope.actor().kind() != ActorKind.API_KEY
                || !validHash.equals(envelope.actor().apiKeyHash())) {
            return DecisionResponder.status(envelope, ReplyStatus.UNAUTHORIZED, "Invalid or expired API key");
        }
        ApprovalSnapshot snapshot = check.approvalId() == null ? null : open.get(check.approvalId());
        return new Reply(Reply.CURRENT_VERSION, envelope.commandId(), envelope.correlationId(), envelope.workspaceId(),
                envelope.replyPartition(), ReplyStatus.OK, null, null, null, 5L, snapshot);
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
        assertThat(json.get("cancelReason").isNull()).isTrue();

        // asked with the key's hash, any scope, naming the approval, in the key's workspace
        CheckAccess asked = (CheckAccess) responder.received(workspace.toString()).get(0).command();
        assertThat(asked).isEqualTo(new CheckAccess(null, null, null, approval.toString()));
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
    void anApprovalTheReadModelDoesNotShowYetIsAnsweredFromTheStream() {
        String approval = UUID.randomUUID().toString();
        open.put(approval, new ApprovalSnapshot(approval, "pending", Tool.CODE_HOST, "pull_request.merge", LATER));

        TestHttp.Response response = status(approval, key);

        assertThat(response.status()).as(response.text()).isEqualTo(200);
        JsonNode json = response.json();
        assertThat(json.get("id").asString()).isEqualTo(approval);
        assertThat(json.get("status").asString()).isEqualTo("pending");
        assertThat(json.get("tool").asString()).isEqualTo("code_host");
        assertThat(json.get("action").asString()).isEqualTo("pull_request.merge");
        assertThat(Instant.parse(json.get("expiresAt").asString())).isEqualTo(LATER);
        assertThat(json.get("reviewedAt").isNull()).isTrue();
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
    void aMalformedIdIs400OnceTheKeyHolds() {
        TestHttp.Response response = status("not-a-uuid", key);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.text()).contains("\"ok\":false").contains("\"error\":\"approvalId must be a uuid\"");
        assertThat(status("not-a-uuid", ApiKeys.generate(workspace)).status()).as("the key first").isEqualTo(401);
    }

    @Test
    void aKeyTheStreamRefusesIs401AndAMalformedOneAsksNothing() {
        UUID approval = ingress.rows.approval(workspace, "pending", LATER, null);
        TestHttp.Response refused = status(approval.toString(), ApiKeys.generate(workspace));
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.error()).isEqualTo("Invalid or expired API key");

        int asked = responder.received(workspace.toString()).size();
        assertThat(status(approval.toString(), "agk_garbage").status()).isEqualTo(401);
        assertThat(ingress.http.get(PATH + approval).send().status()).isEqualTo(401);
        assertThat(responder.received(workspace.toString())).hasSize(asked);
    }

    @Test
    void otherMethodsAre405() {
        TestHttp.Response response = ingress.http.post(PATH + UUID.randomUUID()).bearer(key).body("{}").send();

        assertThat(response.status()).isEqualTo(405);
        assertThat(response.headers().first("Allow")).isEqualTo("GET");
    }
}
