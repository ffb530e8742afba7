package io.agentgateway.decisionstream.topology;

import static io.agentgateway.decisionstream.topology.TestWorkspace.action;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApiKeyIssued;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 16 item 5: an API key bound to an agent id (or a pattern) acts only as that agent, decided in log order;
 * the audit entry says whether the agent was bound or only asserted, and a policy can ask for a bound identity.
 */
class AgentIdentityTest extends OneWorkspaceTopologyTest {
    private String boundKey(String agentId, String pattern) {
        String hash = TestWorkspace.sha256("agk_" + UUID.randomUUID());
        ApiKeyIssued issued = workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "bound", hash,
                Set.of(Scope.EVALUATE), null, agentId, pattern)).only(ApiKeyIssued.class);
        assertThat(issued.agentId()).isEqualTo(agentId);
        assertThat(issued.agentIdPattern()).isEqualTo(pattern);
        return hash;
    }

    @Test
    void a_key_bound_to_an_agent_refuses_another_agent_id_and_records_nothing() {
        String key = boundKey("release-bot", null);

        Emitted impostor = workspace.as(Actor.apiKey(key, null),
                action(Tool.DOCS, "page.read", RiskLevel.LOW).agent("deploy-bot").build());
        impostor.refused(ReplyStatus.FORBIDDEN,
                "This API key is bound to agent 'release-bot' and cannot act as agent 'deploy-bot' (X-Agent-Id / agentId); "
                        + "send the bound agent id or none");
        impostor.assertNothingButTheReply();

        // the header form (the actor's agent id) is held to the same binding
        assertThat(workspace.as(Actor.apiKey(key, "deploy-bot"), action(Tool.DOCS, "page.read", RiskLevel.LOW).agent(null).build())
                .reply().status()).isEqualTo(ReplyStatus.FORBIDDEN);
    }

    @Test
    void a_bound_key_without_an_agent_id_acts_as_its_agent_and_the_audit_says_bound_or_asserted() {
        String key = boundKey("release-bot", null);
        ActionEvaluated unnamed = workspace.as(Actor.apiKey(key, null),
                action(Tool.DOCS, "page.read", RiskLevel.LOW).agent(null).build()).event(0, ActionEvaluated.class);
        assertThat(unnamed.agentId()).isEqualTo("release-bot");
        assertThat(unnamed.agentIdentity()).isEqualTo(AgentIdentity.BOUND);

        ActionEvaluated named = workspace.as(Actor.apiKey(key, "release-bot"),
                action(Tool.DOCS, "page.read", RiskLevel.LOW).agent(null).build()).event(0, ActionEvaluated.class);
        assertThat(named.agentIdentity()).isEqualTo(AgentIdentity.BOUND);

        // the workspace's evaluate key is bound to no agent: the agent it names is only asserted
        ActionEvaluated asserted = workspace.evaluate(action(Tool.DOCS, "page.read", RiskLevel.LOW).agent("release-bot").build())
                .event(0, ActionEvaluated.class);
        assertThat(asserted.agentId()).isEqualTo("release-bot");
        assertThat(asserted.agentIdentity()).isEqualTo(AgentIdentity.ASSERTED);

        ActionEvaluated anonymous = workspace.as(Actor.apiKey(workspace.evaluateKeyHash(), null),
                action(Tool.DOCS, "page.read", RiskLevel.LOW).agent(null).build()).event(0, ActionEvaluated.class);
        assertThat(anonymous.agentId()).isNull();
        assertThat(anonymous.agentIdentity()).isNull();
    }

    @Test
    void a_pattern_binds_the_ids_it_matches() {
        String key = boundKey(null, "release-*");
        ActionEvaluated matched = workspace.as(Actor.apiKey(key, "release-eu"),
                action(Tool.DOCS, "page.read", RiskLevel.LOW).agent(null).build()).event(0, ActionEvaluated.class);
        assertThat(matched.agentIdentity()).isEqualTo(AgentIdentity.BOUND);
        assertThat(workspace.as(Actor.apiKey(key, "deploy-eu"), action(Tool.DOCS, "page.read", RiskLevel.LOW).agent(null).build())
                .reply().status()).isEqualTo(ReplyStatus.FORBIDDEN);
    }

    @Test
    void a_policy_can_require_a_bound_identity() {
        // allow release-bot's merges only when the key is bound to release-bot; an asserted release-bot is held
        workspace.upsertPolicy("release-bot merges, bound only", 10, Decision.ALLOW,
                new PolicyMatch(Set.of(), List.of("pull_request.merge"), Set.of(), List.of("release-bot"), List.of(),
                        List.of(), Set.of(), AgentIdentity.BOUND));
        String key = boundKey("release-bot", null);

        Emitted bound = workspace.as(Actor.apiKey(key, null),
                action(Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH).agent(null).build());
        assertThat(bound.evaluation().decision()).isEqualTo(Decision.ALLOW);

        Emitted asserted = workspace.evaluate(action(Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH)
                .agent("release-bot").build());
        assertThat(asserted.evaluation().decision()).as("the workspace default for high risk").isEqualTo(Decision.REQUIRE_APPROVAL);
    }

    @Test
    void a_key_is_bound_to_one_id_or_one_pattern() {
        String hash = TestWorkspace.sha256("agk_" + UUID.randomUUID());
        workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "k", hash, Set.of(Scope.EVALUATE), null,
                        "release-bot", "release-*"))
                .refused(ReplyStatus.INVALID, "agentId and agentIdPattern cannot both be set: bind the key to one agent id or to one pattern");
        assertThat(workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "k", hash, Set.of(Scope.EVALUATE), null, null, "*"))
                .reply().status()).isEqualTo(ReplyStatus.INVALID);
        assertThat(workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "k", hash, Set.of(Scope.EVALUATE), null, "a b", null))
                .reply().status()).isEqualTo(ReplyStatus.INVALID);
    }
}
