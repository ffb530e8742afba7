package io.agentgateway.agentapi.status;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.agentgateway.actiongate.ConnectionAccess;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.EdgeTestServer;
import io.agentgateway.httpedge.web.MethodRoutes;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.Reply;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The approval status handler alone: bound to its route with the edge's correlation ids and error body, its services
 * stubbed at the module's boundary: the key's check through the decision stream ({@link ConnectionAccess}) and the read
 * model's {@code approval_requests} ({@link ApprovalRepository}). Against a stand-in stream and a real read model:
 * ingress-api's {@code ApprovalStatusTest}.
 */
class ApprovalStatusHandlerTest {
    private static final String PATH = "/functions/v1/mcp-gate/status/";
    private static final Instant EXPIRES = Instant.parse("2030-01-01T11:00:00Z");

    private final ConnectionAccess access = mock(ConnectionAccess.class);
    private final ApprovalRepository approvals = mock(ApprovalRepository.class);
    private final UUID workspace = UUID.randomUUID();
    private final String key = ApiKeys.generate(workspace);
    private final UUID approval = UUID.randomUUID();
    private final EdgeTestServer server = EdgeTestServer.serve(MethodRoutes.path(PATH + "{approvalId}")
            .get(new ApprovalStatusHandler(access, approvals)::status).build());
    private final WebTestClient client = server.client();

    @AfterEach
    void stop() {
        server.close();
    }

    /** The stream accepts the key and holds {@code open} (null: nothing) of the approval asked for. */
    private void keyAccepted(ApprovalSnapshot open) {
        when(access.lookUpApproval(eq(workspace), anyString(), any(Actor.class), any())).thenAnswer(call -> Mono.just(new Reply(
                Reply.CURRENT_VERSION, UUID.randomUUID().toString(), call.getArgument(1), workspace.toString(), 0,
                ReplyStatus.OK, null, null, null, 5L, open)));
    }

    private WebTestClient.ResponseSpec status(String approvalId, String apiKey) {
        return client.get().uri(PATH + approvalId).header("Authorization", "Bearer " + apiKey).exchange();
    }

    @Test
    void theReadModelsRowIsTheAnswerAskedInTheKeysWorkspace() {
        keyAccepted(null);
        when(approvals.find(approval, workspace)).thenReturn(Optional.of(new ApprovalView(true, approval.toString(), "executed",
                Instant.parse("2030-01-01T10:00:00Z"), "reviewer-1", "looks fine",
                JsonNodeFactory.instance.objectNode().put("done", true), EXPIRES, "mcp", "delete_repo", "high",
                Instant.parse("2030-01-01T09:00:00Z"), null, "digest", null)));

        status(approval.toString(), key).expectStatus().isOk().expectBody().json("""
                {"ok":true,"id":"%s","status":"executed","reviewedAt":"2030-01-01T10:00:00Z","reviewedBy":"reviewer-1",
                 "reviewReason":"looks fine","executionResult":{"done":true},"expiresAt":"2030-01-01T11:00:00Z",
                 "tool":"mcp","action":"delete_repo","riskLevel":"high","createdAt":"2030-01-01T09:00:00Z",
                 "cancelReason":null,"callDigest":"digest","callView":null}""".formatted(approval), true);
        // the key's hash, any scope, naming the approval
        verify(access).lookUpApproval(eq(workspace), anyString(), eq(Actor.apiKey(ApiKeys.hash(key), null)),
                eq(approval.toString()));
    }

    @Test
    void beforeTheProjectorWroteItTheStreamsOpenApprovalIsTheAnswer() {
        keyAccepted(new ApprovalSnapshot(approval.toString(), "pending", Tool.CODE_HOST, "pull_request.merge", EXPIRES));
        when(approvals.find(approval, workspace)).thenReturn(Optional.empty());

        status(approval.toString(), key).expectStatus().isOk().expectBody()
                .jsonPath("$.id").isEqualTo(approval.toString())
                .jsonPath("$.status").isEqualTo("pending")
                .jsonPath("$.tool").isEqualTo("code_host")
                .jsonPath("$.action").isEqualTo("pull_request.merge")
                .jsonPath("$.expiresAt").isEqualTo("2030-01-01T11:00:00Z")
                .jsonPath("$.reviewedAt").isEmpty();
    }

    @Test
    void anApprovalNeitherShowsIsNotFound() {
        keyAccepted(null);
        when(approvals.find(approval, workspace)).thenReturn(Optional.empty());

        status(approval.toString(), key).expectStatus().isNotFound().expectBody()
                .jsonPath("$.ok").isEqualTo(false).jsonPath("$.error").isEqualTo("Approval request not found");
    }

    @Test
    void aMalformedIdIs400OnceTheKeyHoldsAndIsNeverLookedUp() {
        keyAccepted(null);

        status("not-a-uuid", key).expectStatus().isBadRequest().expectBody()
                .jsonPath("$.error").isEqualTo("approvalId must be a uuid");
        // the key is still asked about, with no approval named
        verify(access).lookUpApproval(eq(workspace), anyString(), any(Actor.class), isNull());
        verifyNoInteractions(approvals);
    }

    @Test
    void aKeyTheStreamRefusesIs401AndNothingIsRead() {
        when(access.lookUpApproval(eq(workspace), anyString(), any(Actor.class), any()))
                .thenReturn(Mono.error(ApiException.unauthorized("Invalid or expired API key")));

        status(approval.toString(), key).expectStatus().isUnauthorized().expectBody()
                .jsonPath("$.error").isEqualTo("Invalid or expired API key");
        verifyNoInteractions(approvals);
    }

    @Test
    void aMissingOrMalformedKeyAsksNothing() {
        client.get().uri(PATH + approval).exchange().expectStatus().isUnauthorized();
        status(approval.toString(), "agk_garbage").expectStatus().isUnauthorized();

        verify(access, never()).lookUpApproval(any(), anyString(), any(Actor.class), any());
        verifyNoInteractions(approvals);
    }
}
