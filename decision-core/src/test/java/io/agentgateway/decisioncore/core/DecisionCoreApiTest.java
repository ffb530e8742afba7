package io.agentgateway.decisioncore.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.evaluation.ActionRequest;
import io.agentgateway.decisioncore.evaluation.Verdict;
import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.decisioncore.state.InMemoryWorkspace;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The core's public API as its drivers use it: {@link CommandDecision#outcome} gives the events their derived ids
 * and the versions of the state as kept, {@link DecisionCore#decide(CommandEnvelope, InMemoryWorkspace)} does that
 * for an in-memory workspace, and {@link DecisionCore#verdict} is the evaluation rule the back-test replays.
 */
class DecisionCoreApiTest {
    private final DecisionCore core = new DecisionCore(DecisionSettings.defaults());

    @Test
    void the_outcome_derives_event_ids_from_the_command_and_names_the_versions_kept() {
        CoreWorkspace workspace = CoreWorkspace.create();

        Decided decided = workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();

        Outcome outcome = decided.outcome();
        CommandEnvelope envelope = decided.envelope();
        assertThat(outcome.status()).isEqualTo(ReplyStatus.OK);
        assertThat(outcome.workspaceId()).isEqualTo(workspace.id);
        assertThat(outcome.workspaceVersion()).isEqualTo(decided.after().workspaceVersion())
                .isEqualTo(decided.before().workspaceVersion() + 1);
        EventEnvelope event = outcome.events().get(0);
        assertThat(event.eventId()).isEqualTo(DerivedIds.eventId(envelope.commandId(), 0));
        assertThat(event.commandId()).isEqualTo(envelope.commandId());
        assertThat(event.occurredAt()).isEqualTo(envelope.acceptedAt());
        assertThat(event.workspaceVersion()).isEqualTo(decided.after().workspaceVersion());
        assertThat(event.event()).isEqualTo(decided.events().get(0));
        assertThat(outcome.notifications()).isEqualTo(decided.decision().notifications());
        assertThat(outcome.replyTo(envelope).status()).isEqualTo(ReplyStatus.OK);
    }

    @Test
    void a_refusal_changes_no_version() {
        CoreWorkspace workspace = CoreWorkspace.create();

        Decided refused = workspace.as(Actor.user("stranger", "s@example.com"), new SetKillSwitch(KillSwitchAction.ENABLE, null))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);

        assertThat(refused.outcome().events()).isEmpty();
        assertThat(refused.outcome().workspaceVersion()).isEqualTo(refused.before().workspaceVersion());
    }

    @Test
    void deciding_against_an_in_memory_workspace_keeps_what_changed() {
        InMemoryWorkspace memory = new InMemoryWorkspace(DecisionSettings.DEFAULT_APPROVAL_TTL);
        String workspaceId = UUID.randomUUID().toString();
        Actor owner = Actor.user("owner-1", "owner@example.com");

        Outcome created = core.decide(new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(),
                workspaceId, null, Instant.parse("2026-03-01T10:00:00Z"), null, owner, new CreateWorkspace("Acme")), memory);

        assertThat(created.status()).isEqualTo(ReplyStatus.OK);
        assertThat(created.events()).hasSize(2);
        assertThat(memory.state().exists()).isTrue();
        assertThat(memory.state().name()).isEqualTo("Acme");
        assertThat(created.workspaceVersion()).isEqualTo(memory.state().workspaceVersion()).isEqualTo(1);
    }

    @Test
    void the_verdict_is_the_rule_evaluations_are_decided_by() {
        CoreWorkspace workspace = CoreWorkspace.create();
        ActionRequest request = new ActionRequest(Tool.DOCS, "page.publish", RiskLevel.HIGH, "agent-7", null, null,
                ActionSource.EVALUATE);

        Verdict verdict = core.verdict(workspace.state(), request);

        assertThat(verdict.decision()).isEqualTo(Decision.REQUIRE_APPROVAL)
                .isEqualTo(workspace.evaluate(Tool.DOCS, "page.publish", RiskLevel.HIGH).decision().evaluation().decision());
        workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
        assertThat(core.verdict(workspace.state(), request).reason()).isEqualTo("Workspace kill switch is enabled");
    }
}
