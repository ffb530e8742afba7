package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.outcome.Outcome;
import static io.agentgateway.decisionstream.topology.TestWorkspace.action;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.UpsertPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class DedupeAndRoutingTest {
    @TempDir
    Path stateDir;
    DecisionDriver driver;
    TestWorkspace workspace;

    @BeforeEach
    void start() {
        driver = new DecisionDriver(DecisionSettings.defaults().withDedupeRetention(Duration.ofMinutes(10)), stateDir);
        workspace = TestWorkspace.create(driver);
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void a_redelivered_evaluation_re_emits_the_identical_outcome_and_changes_nothing() {
        CommandEnvelope envelope = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                action(Tool.CODE_HOST, "file.write", RiskLevel.LOW).build());
        Emitted first = driver.send(envelope);
        assertThat(first.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
        WorkspaceState afterFirst = driver.workspaceStates().get(workspace.id);

        Emitted second = driver.send(envelope);
        assertThat(second).isEqualTo(first);
        assertThat(driver.workspaceStates().get(workspace.id)).isEqualTo(afterFirst);
    }

    @Test
    void a_redelivery_rebuilds_the_payload_excerpt_and_held_call_from_the_command_and_the_record_stays_small() {
        ObjectNode payload = GatewayJson.MAPPER.createObjectNode();
        payload.put("body", "x".repeat(8_000));
        payload.put("title", "Ünïcode close to the cut");
        EvaluateAction held = new EvaluateAction(Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH, "agent-7", "Agent Seven",
                "repository", "acme/api", payload, "someone@example.com", ActionSource.PROXY, Scope.EVALUATE, false,
                new SealedHeldCall(HeldCallKind.HTTP_REQUEST, "v1." + "s".repeat(3_000), "a".repeat(64)));
        CommandEnvelope envelope = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()), held);
        Emitted first = driver.send(envelope);
        assertThat(first.event(0, ActionEvaluated.class).payloadTruncated()).isTrue();
        assertThat(first.event(1, ApprovalRequested.class).heldCall()).isNotNull();

        // as after a crash that wrote the state and the dedupe record but not the events: the same records again
        Emitted again = driver.send(envelope);
        assertThat(again).isEqualTo(first);

        byte[] stored = new io.agentgateway.schemas.kafka.JsonSerde<>(StoredOutcome.class)
                .serialize("t", driver.processedCommands().fetch(envelope.commandId(), envelope.acceptedAt().toEpochMilli()));
        int emitted = first.events().stream().mapToInt(e -> GatewayJson.MAPPER.writeValueAsBytes(e).length).sum();
        assertThat(stored.length).as("stored without the excerpt and the held call (emitted: %d bytes)", emitted)
                .isLessThan(3_500).isLessThan(emitted / 3);
    }

    @Test
    void an_allowed_evaluation_is_remembered_in_well_under_a_kilobyte() {
        CommandEnvelope envelope = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                action(Tool.DOCS, "page.read", RiskLevel.LOW).payload(GatewayJson.MAPPER.createObjectNode().put("q", "y".repeat(4_000)))
                        .build());
        driver.send(envelope).evaluation();
        byte[] stored = new io.agentgateway.schemas.kafka.JsonSerde<>(StoredOutcome.class)
                .serialize("t", driver.processedCommands().fetch(envelope.commandId(), envelope.acceptedAt().toEpochMilli()));
        assertThat(stored.length).isLessThan(1_000);
    }

    @Test
    void a_redelivery_after_the_state_changed_still_gets_the_original_decision() {
        CommandEnvelope evaluation = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                action(Tool.DOCS, "page.read", RiskLevel.LOW).build());
        Emitted first = driver.send(evaluation);
        assertThat(first.evaluation().decision()).isEqualTo(Decision.ALLOW);

        workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
        assertThat(driver.send(evaluation)).isEqualTo(first);
    }

    @Test
    void a_redelivered_admin_command_is_not_applied_twice() {
        CommandEnvelope create = new CommandEnvelope(1, UUID.randomUUID().toString(), UUID.randomUUID().toString(), "corr",
                TestWorkspace.START, 3, workspace.owner, new CreateWorkspace("Once"));
        Emitted first = driver.send(create);
        first.ok();
        Emitted second = driver.send(create);
        assertThat(second).as("the redelivery answers ok again, not 'already exists'").isEqualTo(first);

        CommandEnvelope pause = workspace.envelope(workspace.owner, new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.DOCS));
        Emitted paused = driver.send(pause);
        long version = driver.workspaceStates().get(workspace.id).workspaceVersion();
        assertThat(driver.send(pause)).isEqualTo(paused);
        assertThat(driver.workspaceStates().get(workspace.id).workspaceVersion()).isEqualTo(version);
    }

    @Test
    void a_retry_from_another_ingress_instance_is_answered_on_its_own_partition() {
        CommandEnvelope envelope = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                action(Tool.DOCS, "page.read", RiskLevel.LOW).build());
        Emitted first = driver.send(envelope);
        CommandEnvelope retried = new CommandEnvelope(1, envelope.commandId(), envelope.workspaceId(), envelope.correlationId(),
                envelope.acceptedAt(), 0, envelope.actor(), envelope.command());
        Emitted second = driver.send(retried);
        assertThat(second.reply().replyPartition()).isZero();
        assertThat(second.reply().evaluation()).isEqualTo(first.reply().evaluation());
        assertThat(second.events()).isEqualTo(first.events());
    }

    @Test
    void a_command_id_reused_for_another_workspace_is_refused() {
        CommandEnvelope envelope = workspace.envelope(workspace.owner, new SetKillSwitch(KillSwitchAction.ENABLE, null));
        driver.send(envelope).ok();
        TestWorkspace other = TestWorkspace.create(driver);
        CommandEnvelope reused = new CommandEnvelope(1, envelope.commandId(), other.id, "corr", envelope.acceptedAt(), 1,
                other.owner, envelope.command());
        driver.send(reused).refused(ReplyStatus.INVALID, "commandId was already used");
        assertThat(driver.workspaceStates().get(other.id).killSwitchEnabled()).isFalse();
    }

    @Test
    void the_outcome_is_kept_in_processed_commands_under_acceptedAt() {
        CommandEnvelope envelope = workspace.envelope(workspace.owner, new SetKillSwitch(KillSwitchAction.ENABLE, null));
        Emitted emitted = driver.send(envelope);
        var stored = driver.processedCommands().fetch(envelope.commandId(), envelope.acceptedAt().toEpochMilli());
        assertThat(stored).isNotNull();
        Outcome restored = stored.restore(envelope);
        assertThat(restored.events()).isEqualTo(emitted.events());
        assertThat(restored.notifications()).isEqualTo(emitted.notifications());
        assertThat(restored.replyTo(envelope)).isEqualTo(emitted.reply());
    }

    @Test
    void replies_name_the_envelopes_partition_and_nobody_waiting_means_no_reply() {
        CommandEnvelope waiting = workspace.envelope(workspace.owner, new SetKillSwitch(KillSwitchAction.ENABLE, null));
        Reply reply = driver.send(waiting).reply();
        assertThat(reply.replyPartition()).isEqualTo(TestWorkspace.REPLY_PARTITION);
        assertThat(reply.commandId()).isEqualTo(waiting.commandId());
        assertThat(reply.correlationId()).isEqualTo(waiting.correlationId());
        assertThat(reply.workspaceId()).isEqualTo(workspace.id);

        CommandEnvelope fireAndForget = workspace.envelope(workspace.owner, new SetKillSwitch(KillSwitchAction.DISABLE, null));
        CommandEnvelope noWaiter = new CommandEnvelope(1, fireAndForget.commandId(), fireAndForget.workspaceId(),
                fireAndForget.correlationId(), fireAndForget.acceptedAt(), null, fireAndForget.actor(), fireAndForget.command());
        Emitted emitted = driver.send(noWaiter);
        assertThat(emitted.replies()).isEmpty();
        assertThat(emitted.events()).hasSize(1);
        assertThat(emitted.notifications()).hasSize(1);
        assertThat(driver.workspaceStates().get(workspace.id).killSwitchEnabled()).isFalse();
    }

    @Test
    void a_null_command_is_invalid() {
        CommandEnvelope envelope = workspace.envelope(workspace.owner, null);
        driver.send(envelope).refused(ReplyStatus.INVALID, "Unsupported or malformed command");
    }

    @Test
    void an_unknown_command_type_is_answered_invalid_rather_than_left_waiting() {
        ObjectNode raw = GatewayJson.MAPPER.createObjectNode()
                .put("schemaVersion", 1).put("commandId", "cmd-unknown").put("workspaceId", workspace.id)
                .put("correlationId", "corr-x").put("acceptedAt", TestWorkspace.START.toString()).put("replyPartition", 3);
        raw.putObject("command").put("type", "launch_rockets");
        Emitted emitted = driver.sendRaw(workspace.id, GatewayJson.MAPPER.writeValueAsBytes(raw));
        Reply reply = emitted.refused(ReplyStatus.INVALID, "Unsupported or malformed command");
        assertThat(reply.commandId()).isEqualTo("cmd-unknown");
        assertThat(reply.replyPartition()).isEqualTo(3);
    }

    @Test
    void bytes_that_are_not_json_are_skipped_and_the_stream_goes_on() {
        driver.sendRaw(workspace.id, "not json at all".getBytes(StandardCharsets.UTF_8)).assertNothing();
        assertThat(workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).evaluation().decision()).isEqualTo(Decision.ALLOW);
    }

    @Test
    void envelopes_missing_required_fields_are_invalid() {
        CommandEnvelope good = workspace.envelope(workspace.owner, new SetKillSwitch(KillSwitchAction.ENABLE, null));
        driver.send(new CommandEnvelope(1, null, good.workspaceId(), "c", good.acceptedAt(), 1, good.actor(), good.command()))
                .refused(ReplyStatus.INVALID, "commandId is required");
        driver.send(new CommandEnvelope(1, "id-1", good.workspaceId(), "c", null, 1, good.actor(), good.command()))
                .refused(ReplyStatus.INVALID, "acceptedAt is required");
        driver.send(new CommandEnvelope(1, "id-2", good.workspaceId(), "c", good.acceptedAt(), 1, null, good.command()))
                .refused(ReplyStatus.INVALID, "actor is required");
        driver.send(UUID.randomUUID().toString(), good).refused(ReplyStatus.INVALID, "the record key must be the workspaceId");
        assertThat(driver.workspaceStates().get(workspace.id).killSwitchEnabled()).isFalse();
    }

    @Test
    void a_command_that_throws_is_answered_internal_error_and_the_stream_goes_on() {
        // a stored policy without a decision cannot come through UpsertPolicy; plant it to make evaluation fail
        WorkspaceState stored = driver.workspaceStates().get(workspace.id);
        String brokenId = UUID.randomUUID().toString();
        driver.workspaceStates().put(workspace.id,
                stored.withPolicy(new Policy(brokenId, "broken", 1, true, null, PolicyMatch.any(), null)));

        CommandEnvelope failing = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()),
                action(Tool.DOCS, "page.read", RiskLevel.LOW).build());
        WorkspaceState beforeFailure = driver.workspaceStates().get(workspace.id);
        driver.send(failing).refused(ReplyStatus.INVALID, "internal error");
        assertThat(driver.workspaceStates().get(workspace.id)).as("nothing written").isEqualTo(beforeFailure);
        assertThat(driver.processedCommands().fetch(failing.commandId(), failing.acceptedAt().toEpochMilli())).isNull();

        workspace.admin(new UpsertPolicy(new Policy(brokenId, "fixed", 1, true, Decision.BLOCK, PolicyMatch.any(), null))).ok();
        assertThat(workspace.evaluate(Tool.DOCS, "page.read", RiskLevel.LOW).evaluation().decision()).isEqualTo(Decision.BLOCK);
        // a failure is not remembered: the redelivery is decided afresh
        assertThat(driver.send(failing).evaluation().decision()).isEqualTo(Decision.BLOCK);
    }

    @Test
    void the_partitioner_honours_the_reply_partition() {
        ReplyPartitioner partitioner = new ReplyPartitioner();
        Reply reply = new Reply(1, "cmd", "corr", "ws", 3, ReplyStatus.OK, null, null);
        assertThat(partitioner.partitions("gateway.replies.v1", "cmd", reply, 4)).contains(Set.of(3));
        assertThat(partitioner.partitions("gateway.replies.v1", "cmd", reply, 2)).isEqualTo(Optional.empty());
        assertThat(partitioner.partitions("gateway.replies.v1", "k", null, 4)).isEmpty();
    }
}
