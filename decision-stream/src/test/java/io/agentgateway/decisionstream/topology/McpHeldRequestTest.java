package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.HeldCallSeal;
import io.agentgateway.schemas.call.HeldMcpRequest;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import io.agentgateway.schemas.secret.SecretBox;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: an MCP {@code resources/read} or {@code prompts/get} whose decision is require_approval opens an approval
 * that holds the sealed request ({@link HeldMcpRequest}, kind {@code mcp_request}) and is bound to it by its digest,
 * so that approving it leaves exactly that request for the executor to claim and run.
 */
class McpHeldRequestTest extends OneWorkspaceTopologyTest {
    private static final HeldCallSeal SEAL =
            new HeldCallSeal(SecretBox.fromBase64Key(Base64.getEncoder().encodeToString(new byte[32])));

    String mcpKey;

    @BeforeEach
    void start() {
        mcpKey = workspace.issueKey(Set.of(Scope.MCP), null);
    }

    private Emitted gate(EvaluateAction asked) {
        return workspace.as(workspace.agent(mcpKey), asked);
    }

    private EvaluateAction read(String method, String resourceType, String resourceId, HeldMcpRequest held) {
        SealedHeldCall sealed = SEAL.seal(Tool.MCP, method, held);
        return new EvaluateAction(Tool.MCP, method, RiskLevel.LOW, "agent-7", null, resourceType, resourceId,
                held.params(), null, ActionSource.MCP, Scope.MCP, false, sealed);
    }

    @Test
    void aReadOrPromptThatNeedsAnApprovalOpensOneHoldingTheSealedRequest() {
        workspace.upsertPolicy("secret reads and prompts need a human", 10, Decision.REQUIRE_APPROVAL, new PolicyMatch(
                Set.of(Tool.MCP), List.of("resources/read", "prompts/get"), Set.of(), List.of(), List.of(),
                List.of("test://secret/*", "greeting"), Set.of()));
        HeldMcpRequest resource = new HeldMcpRequest("resources/read",
                GatewayJson.MAPPER.readTree("{\"uri\":\"test://secret/plans\"}"));
        HeldMcpRequest prompt = new HeldMcpRequest("prompts/get",
                GatewayJson.MAPPER.readTree("{\"name\":\"greeting\",\"arguments\":{\"name\":\"Ada\"}}"));

        for (var asked : List.of(read("resources/read", "resource", "test://secret/plans", resource),
                read("prompts/get", "prompt", "greeting", prompt))) {
            Emitted emitted = gate(asked);
            assertThat(emitted.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
            assertThat(emitted.event(0, ActionEvaluated.class).resourceId()).isEqualTo(asked.resourceId());
            ApprovalRequested requested = emitted.event(1, ApprovalRequested.class);
            assertThat(requested.approvalId()).isEqualTo(emitted.evaluation().approvalRequestId());
            assertThat(requested.heldCall()).isEqualTo(asked.heldCall());
            assertThat(requested.heldCall().kind()).isEqualTo(HeldCallKind.MCP_REQUEST);
            // bound to the sealed request: it opens, with the approval's tool, action and digest, to exactly that request
            assertThat(requested.callDigest()).isEqualTo(asked.heldCall().digest());
            HeldMcpRequest expected = asked.action().equals("resources/read") ? resource : prompt;
            assertThat(SEAL.open(requested.heldCall(), Tool.MCP, asked.action(), requested.callDigest())).isEqualTo(expected);

            ApprovalReviewed reviewed = workspace.admin(new ReviewApproval(requested.approvalId(), ReviewVerdict.APPROVE, "ok"))
                    .only(ApprovalReviewed.class);
            assertThat(reviewed.heldCallKind()).isEqualTo(HeldCallKind.MCP_REQUEST);
            assertThat(reviewed.callDigest()).isEqualTo(requested.callDigest());
            ApprovedCallClaimed claimed = workspace.as(io.agentgateway.schemas.Actor.system("approval-executor"),
                    new ClaimApprovedCall(requested.approvalId(), "executor-1")).only(ApprovedCallClaimed.class);
            assertThat(claimed.approvalId()).isEqualTo(requested.approvalId());
        }
    }

    @Test
    void anAllowedOrBlockedReadOpensNothing() {
        workspace.upsertPolicy("no secret reads", 10, Decision.BLOCK, new PolicyMatch(Set.of(Tool.MCP),
                List.of("resources/read"), Set.of(), List.of(), List.of(), List.of("test://secret/*"), Set.of()));
        Emitted blocked = gate(read("resources/read", "resource", "test://secret/plans",
                new HeldMcpRequest("resources/read", GatewayJson.MAPPER.readTree("{\"uri\":\"test://secret/plans\"}"))));
        assertThat(blocked.evaluation().decision()).isEqualTo(Decision.BLOCK);
        assertThat(blocked.domainEvents()).hasSize(1).allMatch(ActionEvaluated.class::isInstance);
        Emitted allowed = gate(read("resources/read", "resource", "test://readme",
                new HeldMcpRequest("resources/read", GatewayJson.MAPPER.readTree("{\"uri\":\"test://readme\"}"))));
        assertThat(allowed.evaluation().decision()).isEqualTo(Decision.ALLOW);
        assertThat(allowed.domainEvents()).hasSize(1).allMatch(ActionEvaluated.class::isInstance);
    }
}
