package io.agentgateway.decisioncore.core.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.core.CoreWorkspace;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.event.LimitReached;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Policies decided by the core alone: {@code upsert_policy} (checks, match-any for a missing match, replace by id,
 * the policy limits, the policy-set version) and {@code delete_policy}; each change is in force for the next
 * evaluation.
 */
class PolicyHandlersTest {
    private final CoreWorkspace workspace = CoreWorkspace.create();

    private static Policy policy(String id, int priority, Decision decision, PolicyMatch match) {
        return new Policy(id, "policy " + priority, priority, true, decision, match, null);
    }

    private static PolicyMatch tools(Tool... tools) {
        return new PolicyMatch(Set.of(tools), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of());
    }

    @Test
    void an_upserted_policy_is_stored_bumps_the_policy_set_and_decides_the_next_evaluation() {
        String id = UUID.randomUUID().toString();

        Decided upserted = workspace.admin(new UpsertPolicy(policy(id, 1, Decision.BLOCK, tools(Tool.CHAT)))).ok();

        assertThat(upserted.event(0, PolicyUpserted.class).policy().id()).isEqualTo(id);
        assertThat(workspace.state().policies()).containsOnlyKeys(id);
        assertThat(upserted.after().policySetVersion()).isEqualTo(upserted.before().policySetVersion() + 1);
        assertThat(upserted.outcome().events()).singleElement()
                .satisfies(e -> assertThat(e.policySetVersion()).isEqualTo(upserted.after().policySetVersion()));
        Decided evaluated = workspace.evaluate(Tool.CHAT, "message.send", RiskLevel.LOW).ok();
        assertThat(evaluated.decision().evaluation().decision()).isEqualTo(Decision.BLOCK);
        assertThat(evaluated.decision().evaluation().matchedPolicyId()).isEqualTo(id);
    }

    @Test
    void a_policy_without_a_match_is_stored_as_match_any_and_an_upsert_of_the_same_id_replaces_it() {
        String id = UUID.randomUUID().toString();
        workspace.admin(new UpsertPolicy(policy(id, 5, Decision.REQUIRE_APPROVAL, null))).ok();
        assertThat(workspace.state().policies().get(id).match()).isEqualTo(PolicyMatch.any());

        workspace.admin(new UpsertPolicy(policy(id, 7, Decision.ALLOW, tools(Tool.DOCS)))).ok();

        assertThat(workspace.state().policies()).containsOnlyKeys(id);
        assertThat(workspace.state().policies().get(id).priority()).isEqualTo(7);
        assertThat(workspace.state().policies().get(id).decision()).isEqualTo(Decision.ALLOW);
    }

    @Test
    void malformed_or_unauthorized_upserts_are_refused() {
        workspace.admin(new UpsertPolicy(null)).refused(ReplyStatus.INVALID, "policy is required");
        workspace.admin(new UpsertPolicy(policy("p1", 1, Decision.BLOCK, null)))
                .refused(ReplyStatus.INVALID, "policy.id must be a lower-case UUID");
        workspace.admin(new UpsertPolicy(new Policy(UUID.randomUUID().toString(), " ", 1, true, Decision.BLOCK, null, null)))
                .refused(ReplyStatus.INVALID, "policy.name is required");
        workspace.admin(new UpsertPolicy(policy(UUID.randomUUID().toString(), 1, null, null)))
                .refused(ReplyStatus.INVALID, "policy.decision must be one of allow, block, require_approval");
        Actor member = workspace.member("mia", Role.MEMBER);
        workspace.as(member, new UpsertPolicy(policy(UUID.randomUUID().toString(), 1, Decision.ALLOW, null)))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
    }

    @Test
    void the_policy_limits_refuse_with_an_audit_entry() {
        CoreWorkspace limited = CoreWorkspace.create(DecisionSettings.defaults()
                .withLimits(DecisionLimits.defaults().withPolicies(1)));
        String kept = UUID.randomUUID().toString();
        limited.admin(new UpsertPolicy(policy(kept, 1, Decision.ALLOW, null))).ok();

        Decided refused = limited.admin(new UpsertPolicy(policy(UUID.randomUUID().toString(), 2, Decision.ALLOW, null)));

        assertThat(refused.status()).isEqualTo(ReplyStatus.LIMITED);
        assertThat(refused.event(0, LimitReached.class).limit()).isEqualTo(DecisionLimits.POLICIES);
        assertThat(refused.after()).isSameAs(refused.before());
        assertThat(limited.admin(new UpsertPolicy(policy(kept, 3, Decision.BLOCK, null))).status())
                .as("replacing a held policy is no new one").isEqualTo(ReplyStatus.OK);
    }

    @Test
    void a_deleted_policy_decides_no_more() {
        String id = UUID.randomUUID().toString();
        workspace.admin(new UpsertPolicy(policy(id, 1, Decision.BLOCK, tools(Tool.DOCS)))).ok();

        Decided deleted = workspace.admin(new DeletePolicy(id)).ok();

        assertThat(deleted.event(0, PolicyDeleted.class).policyId()).isEqualTo(id);
        assertThat(workspace.state().policies()).isEmpty();
        assertThat(deleted.after().policySetVersion()).isEqualTo(deleted.before().policySetVersion() + 1);
        assertThat(workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).decision().evaluation().decision())
                .isEqualTo(Decision.ALLOW);
        workspace.admin(new DeletePolicy(id)).refused(ReplyStatus.NOT_FOUND, "Policy not found");
        workspace.admin(new DeletePolicy(" ")).refused(ReplyStatus.INVALID, "policyId is required");
    }
}
