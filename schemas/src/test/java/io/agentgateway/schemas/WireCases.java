package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import io.agentgateway.schemas.WireCase.SchemaCheck;
import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every {@link WireCase} of the contract, built from {@link WireSamples}. */
final class WireCases {
    static final String COMMAND_ENVELOPE_SCHEMA = "envelope/command_envelope.schema.json";
    static final String EVENT_ENVELOPE_SCHEMA = "envelope/event_envelope.schema.json";
    static final String REPLY_SCHEMA = "envelope/reply.schema.json";
    static final String NOTIFICATION_SCHEMA = "envelope/notification_requested.schema.json";
    static final String APPROVAL_NOTIFICATION_SCHEMA = "envelope/approval_requested_notification.schema.json";

    private WireCases() {}

    static List<WireCase> all() {
        List<WireCase> cases = new ArrayList<>();
        Map<Class<?>, String> commandNames = typeNames(Command.class);
        WireSamples.commands().forEach((type, command) -> {
            String name = commandNames.get(type);
            cases.add(new WireCase("command_" + name, List.of(Topics.COMMANDS), WireSamples.commandEnvelope(command),
                    List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""),
                            new SchemaCheck(commandSchema(name), "/command"))));
        });
        Map<Class<?>, String> eventNames = typeNames(DomainEvent.class);
        WireSamples.events().forEach((type, event) -> {
            String name = eventNames.get(type);
            cases.add(new WireCase("event_" + name, List.of(Topics.EVENTS), WireSamples.eventEnvelope(event),
                    List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""),
                            new SchemaCheck(eventSchema(name), "/event"))));
        });
        // config.rules came after the first golden files (which still read, as configs without rules): the
        // samples with rules are pinned in files of their own
        cases.add(new WireCase("command_upsert_tool_connection_with_rules", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(UpsertToolConnection.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""),
                        new SchemaCheck(commandSchema("upsert_tool_connection"), "/command"))));
        cases.add(new WireCase("event_tool_connection_upserted_with_rules", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(ToolConnectionUpserted.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""),
                        new SchemaCheck(eventSchema("tool_connection_upserted"), "/event"))));
        // connection versions (issue 12) came after the first golden files, which still read (without them)
        for (String name : List.of("evaluate_action", "receive_webhook")) {
            Class<?> type = commandNames.entrySet().stream().filter(e -> e.getValue().equals(name)).findFirst().orElseThrow().getKey();
            cases.add(new WireCase("command_" + name + "_with_connection_version", List.of(Topics.COMMANDS),
                    WireSamples.commandEnvelope(WireSamples.commands().get(type)),
                    List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""), new SchemaCheck(commandSchema(name), "/command"))));
        }
        // the body digest and the unmatched delivery's excerpt (issue 14) came later again (the sample sets both the
        // payload and the excerpt, so that every field is on the wire; the ingress sends one or the other)
        cases.add(new WireCase("command_receive_webhook_with_body_digest", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(io.agentgateway.schemas.command.ReceiveWebhook.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""), new SchemaCheck(commandSchema("receive_webhook"), "/command"))));
        cases.add(new WireCase("event_tool_connection_upserted_with_version", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(ToolConnectionUpserted.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""),
                        new SchemaCheck(eventSchema("tool_connection_upserted"), "/event"))));
        // limitReached came after the first golden files (which still read, as evaluations no limit changed)
        cases.add(new WireCase("event_action_evaluated_with_limit", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(ActionEvaluated.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""),
                        new SchemaCheck(eventSchema("action_evaluated"), "/event"))));
        // deadlines (issue 17) came later too: an envelope with its deadline, an evaluation that reached nobody,
        // and a workspace an operator created for its owner, pinned in files of their own
        cases.add(new WireCase("command_evaluate_action_with_deadline", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(EvaluateAction.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""),
                        new SchemaCheck(commandSchema("evaluate_action"), "/command"))));
        cases.add(new WireCase("command_create_workspace_with_owner", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(CreateWorkspace.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""),
                        new SchemaCheck(commandSchema("create_workspace"), "/command"))));
        cases.add(new WireCase("event_action_evaluated_undelivered", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(ActionEvaluated.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""),
                        new SchemaCheck(eventSchema("action_evaluated"), "/event"))));
        // issue 16: what reviewers are shown of a held call, keys bound to an agent, the agent's identity in the
        // audit entry and a policy that asks for it, pinned in files of their own (the earlier files read without them)
        cases.add(new WireCase("command_evaluate_action_with_call_view", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(EvaluateAction.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""), new SchemaCheck(commandSchema("evaluate_action"), "/command"))));
        cases.add(new WireCase("event_approval_requested_with_call_view", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(io.agentgateway.schemas.event.ApprovalRequested.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""), new SchemaCheck(eventSchema("approval_requested"), "/event"))));
        cases.add(new WireCase("command_issue_api_key_with_agent", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(io.agentgateway.schemas.command.IssueApiKey.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""), new SchemaCheck(commandSchema("issue_api_key"), "/command"))));
        cases.add(new WireCase("event_api_key_issued_with_agent", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(io.agentgateway.schemas.event.ApiKeyIssued.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""), new SchemaCheck(eventSchema("api_key_issued"), "/event"))));
        cases.add(new WireCase("event_action_evaluated_with_agent_identity", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(ActionEvaluated.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""), new SchemaCheck(eventSchema("action_evaluated"), "/event"))));
        cases.add(new WireCase("event_policy_upserted_with_agent_identity", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(io.agentgateway.schemas.event.PolicyUpserted.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""), new SchemaCheck(eventSchema("policy_upserted"), "/event"))));
        // the console: a kill switch pressed with a reason, and the roles that read (viewer) and decide approvals
        // (reviewer), pinned in files of their own (the earlier files read without them)
        cases.add(new WireCase("command_set_kill_switch_with_reason", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(io.agentgateway.schemas.command.SetKillSwitch.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""), new SchemaCheck(commandSchema("set_kill_switch"), "/command"))));
        cases.add(new WireCase("event_kill_switch_changed_with_reason", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(io.agentgateway.schemas.event.KillSwitchChanged.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""), new SchemaCheck(eventSchema("kill_switch_changed"), "/event"))));
        cases.add(new WireCase("command_set_member_reviewer", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(new io.agentgateway.schemas.command.SetMember("user-45", "rita@acme.example",
                        io.agentgateway.schemas.Role.REVIEWER)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""), new SchemaCheck(commandSchema("set_member"), "/command"))));
        cases.add(new WireCase("event_member_set_viewer", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(new io.agentgateway.schemas.event.MemberSet("user-46", "vic@acme.example",
                        io.agentgateway.schemas.Role.VIEWER)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""), new SchemaCheck(eventSchema("member_set"), "/event"))));
        // issue 15: the tools an MCP tools/list names and those its decision hides, in files of their own
        cases.add(new WireCase("command_evaluate_action_with_listed_tools", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(EvaluateAction.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""), new SchemaCheck(commandSchema("evaluate_action"), "/command"))));
        cases.add(new WireCase("reply_with_hidden_tools", List.of(Topics.REPLIES), WireSamples.reply(),
                List.of(new SchemaCheck(REPLY_SCHEMA, ""))));
        // policy conditions: a policy with one, what an evaluation carries for them, the errors its audit entry names and
        // the workspace's time zone, in files of their own (the earlier files read without them)
        cases.add(new WireCase("command_upsert_policy_with_condition", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(io.agentgateway.schemas.command.UpsertPolicy.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""), new SchemaCheck(commandSchema("upsert_policy"), "/command"))));
        cases.add(new WireCase("event_policy_upserted_with_condition", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(io.agentgateway.schemas.event.PolicyUpserted.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""), new SchemaCheck(eventSchema("policy_upserted"), "/event"))));
        cases.add(new WireCase("command_evaluate_action_with_condition_inputs", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(EvaluateAction.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""), new SchemaCheck(commandSchema("evaluate_action"), "/command"))));
        cases.add(new WireCase("event_action_evaluated_with_condition_errors", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(ActionEvaluated.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""), new SchemaCheck(eventSchema("action_evaluated"), "/event"))));
        cases.add(new WireCase("command_set_workspace_defaults_with_time_zone", List.of(Topics.COMMANDS),
                WireSamples.commandEnvelope(WireSamples.commands().get(io.agentgateway.schemas.command.SetWorkspaceDefaults.class)),
                List.of(new SchemaCheck(COMMAND_ENVELOPE_SCHEMA, ""), new SchemaCheck(commandSchema("set_workspace_defaults"), "/command"))));
        cases.add(new WireCase("event_workspace_defaults_set_with_time_zone", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(io.agentgateway.schemas.event.WorkspaceDefaultsSet.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""), new SchemaCheck(eventSchema("workspace_defaults_set"), "/event"))));
        // the Merkle log's seal on the envelope came later again: an evaluation as sealed, in a file of its own
        cases.add(new WireCase("event_action_evaluated_sealed", List.of(Topics.EVENTS),
                WireSamples.eventEnvelope(WireSamples.events().get(ActionEvaluated.class)),
                List.of(new SchemaCheck(EVENT_ENVELOPE_SCHEMA, ""), new SchemaCheck(eventSchema("action_evaluated"), "/event"))));
        // sealed inside commands and events, so on no topic as such, but a wire format all the same
        WireSamples.heldCalls().forEach(call -> {
            String name = typeNames(HeldCall.class).get(call.getClass());
            cases.add(new WireCase("held_call_" + name, List.of(), call, List.of(new SchemaCheck(heldCallSchema(name), ""))));
        });
        cases.add(new WireCase("reply", List.of(Topics.REPLIES), WireSamples.reply(),
                List.of(new SchemaCheck(REPLY_SCHEMA, ""))));
        cases.add(new WireCase("reply_with_connection_and_approval", List.of(Topics.REPLIES), WireSamples.reply(),
                List.of(new SchemaCheck(REPLY_SCHEMA, ""))));
        // MCP tasks: when the approval an evaluation opened was opened and expires, and which key opened it
        cases.add(new WireCase("reply_with_approval_times_and_key", List.of(Topics.REPLIES), WireSamples.reply(),
                List.of(new SchemaCheck(REPLY_SCHEMA, ""))));
        cases.add(new WireCase("notification_requested",
                List.of(Topics.NOTIFICATIONS, Topics.NOTIFICATIONS_DEAD_LETTER), WireSamples.notification(),
                List.of(new SchemaCheck(NOTIFICATION_SCHEMA, ""))));
        cases.add(new WireCase("notification_approval_requested",
                List.of(Topics.NOTIFICATIONS, Topics.NOTIFICATIONS_DEAD_LETTER), WireSamples.approvalNotification(),
                List.of(new SchemaCheck(NOTIFICATION_SCHEMA, ""), new SchemaCheck(APPROVAL_NOTIFICATION_SCHEMA, ""))));
        cases.add(new WireCase("notification_approval_requested_with_call_view",
                List.of(Topics.NOTIFICATIONS, Topics.NOTIFICATIONS_DEAD_LETTER), WireSamples.approvalNotification(),
                List.of(new SchemaCheck(NOTIFICATION_SCHEMA, ""), new SchemaCheck(APPROVAL_NOTIFICATION_SCHEMA, ""))));
        return cases;
    }

    static String commandSchema(String typeName) {
        return "command/" + typeName + ".schema.json";
    }

    static String heldCallSchema(String typeName) {
        return "held_call/" + typeName + ".schema.json";
    }

    static String eventSchema(String typeName) {
        return "event/" + typeName + ".schema.json";
    }

    /** The wire name ("type" property) of every subtype registered on a polymorphic contract interface. */
    static Map<Class<?>, String> typeNames(Class<?> polymorphicType) {
        JsonSubTypes subTypes = polymorphicType.getAnnotation(JsonSubTypes.class);
        Map<Class<?>, String> names = new LinkedHashMap<>();
        Arrays.stream(subTypes.value()).forEach(t -> names.put(t.value(), t.name()));
        return names;
    }
}
