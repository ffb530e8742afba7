package io.agentgateway.schemas;

import io.agentgateway.schemas.call.CallView;
import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.call.HeldHttpRequest;
import io.agentgateway.schemas.call.HeldMcpToolCall;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.ApprovalSnapshot;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.DeleteToolConnection;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.command.RecordCallerGaveUp;
import io.agentgateway.schemas.command.RemoveMember;
import io.agentgateway.schemas.command.SendTestNotification;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.RotateWebhookSecret;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.command.SetNotificationSettings;
import io.agentgateway.schemas.command.SetToolAccessToken;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.ApiKeyRevoked;
import io.agentgateway.schemas.event.ApprovalExpired;
import io.agentgateway.schemas.event.EvaluationUndelivered;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.notification.ApprovalRequestNotice;
import io.agentgateway.schemas.event.ApprovalReviewed;
import io.agentgateway.schemas.event.ApprovedCallCancelled;
import io.agentgateway.schemas.event.ApprovedCallClaimed;
import io.agentgateway.schemas.event.ApprovedCallExecuted;
import io.agentgateway.schemas.event.ApprovedCallFailed;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.event.LimitReached;
import io.agentgateway.schemas.event.MemberRemoved;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.event.NotificationSettingsSet;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.event.WebhookSecretRotated;
import io.agentgateway.schemas.event.WebhookReceived;
import io.agentgateway.schemas.event.WorkspaceCreated;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import io.agentgateway.schemas.secret.SealedSecret;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * One fully-populated sample of every wire type: every field set (even where a real writer would
 * leave it null, such as an api-key actor's email), so that every field crosses the wire at least
 * once in the round-trip, schema and golden-file tests. The values are fixed because the golden
 * files were written from them; enum sets and maps are Enum* collections so that the JSON order is stable.
 */
final class WireSamples {
    static final String WORKSPACE_ID = "7d4f9e2a-3b1c-4e8f-9a6d-0c5b2e1f4a37";
    static final String COMMAND_ID = "c0a8012e-5f3d-4b7a-8e91-2d6c4f0b9e13";
    static final String CORRELATION_ID = "9b1e7c3a-0d4f-4a2b-b5e6-8f7a1c2d3e40";
    static final Instant ACCEPTED_AT = Instant.parse("2025-03-01T09:30:00.123456Z");
    static final String POLICY_ID = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b";
    static final String KEY_ID = "1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9";
    static final String KEY_HASH = "3b6f0e1c9d2a4b8e7f5c1a0d9e8b7c6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c";
    static final long CONNECTION_VERSION = 12L;
    static final String CALL_DIGEST = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
    /** Shaped like SecretBox output; the contract carries only the sealed form, so no key is needed here. */
    static final String BODY_DIGEST = "sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";

    static final String SEALED_WEBHOOK_URL = "v1.q83vEjRWeJASNFZ4kBI0VniQEjRWeJASNFZ4kBI0VniQEjRWeJASNFZ4kBI0Vng";
    static final SealedSecret SEALED_ACCESS_TOKEN = SealedSecret.of("v1.AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJw");
    static final SealedSecret SEALED_WEBHOOK_SECRET = SealedSecret.of("v1.KCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4_QEFCQ0RFRkdISUpLTE1OTw");
    static final String EXECUTOR_ID = "approval-executor-3f9c2a71";
    static final Instant EXPIRES_AT = Instant.parse("2025-03-02T09:30:00.123456Z");

    /** Shaped like SecretBox output, as {@link #SEALED_WEBHOOK_URL}. */
    static SealedHeldCall sealedHeldCall() {
        return new SealedHeldCall(HeldCallKind.HTTP_REQUEST,
                "v1.7nQ2xWlY0d3kPzR8uVb5Hc1sJf4tGm6eAo9iKqLw2yXnZr3pTa8vBc5dEf7gHj0kLm", CALL_DIGEST);
    }

    /** Every kind of held call (the plaintext inside a sealed held call). */
    static List<HeldCall> heldCalls() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("accept", List.of("application/vnd.code-host.v3+json"));
        headers.put("content-type", List.of("application/json"));
        headers.put("x-request-tag", List.of("a", "b"));
        return List.of(
                new HeldHttpRequest("PUT", "/repos/acme/api/pulls/128/merge", "dry_run=false&note=%C3%A9", headers,
                        "eyJtZXJnZV9tZXRob2QiOiJzcXVhc2gifQ=="),
                new HeldMcpToolCall("delete_repository",
                        GatewayJson.MAPPER.readTree("{\"repo\":\"acme/api\",\"force\":true,\"tags\":[\"x\",1,null]}")),
                new io.agentgateway.schemas.call.HeldMcpRequest("prompts/get",
                        GatewayJson.MAPPER.readTree("{\"name\":\"incident_summary\",\"arguments\":{\"incident\":\"INC-7\"}}")));
    }

    /** What conditions read of a proxied call: every part set. */
    static io.agentgateway.schemas.command.condition.ConditionInputs conditionInputs() {
        Map<String, List<String>> query = new LinkedHashMap<>();
        query.put("dry_run", List.of("false"));
        query.put("note", List.of("\u00e9", "x"));
        return new io.agentgateway.schemas.command.condition.ConditionInputs(
                GatewayJson.MAPPER.readTree("{\"merge_method\":\"squash\",\"sha\":\"6dcb09b\",\"token\":\"[redacted]\"}"), 4096,
                new io.agentgateway.schemas.command.condition.RequestFacts("PUT", List.of("repos", "acme", "api", "pulls", "128", "merge"),
                        query, "IssueDelete", List.of("issueDelete")),
                new io.agentgateway.schemas.command.condition.TargetFacts("acme", "api", "refs/heads/main", ".github/workflows/ci.yml",
                        "ENG", "org-7f3a", List.of("ready", "security")),
                List.of("target.labels"));
    }

    /** What reviewers are shown of a held call: every part set, whichever kind of call it belongs to. */
    static CallView callView() {
        return new CallView("PUT", "/repos/acme/api/contents/.ci/deploy.yml", "ref=main", "IssueDelete",
                "mutation IssueDelete($id: String!) { issueDelete(id: $id) { success } }", "{\"id\":\"ISS-42\"}",
                "delete_repository", "{\"repo\":\"acme/api\",\"token\":\"[redacted]\"}",
                "{\"message\":\"ci: deploy\",\"content\":\"b246OiBwdXNo\"}", "on: push\n", 4096, true, true);
    }

    static JsonNode executionResult() {
        return GatewayJson.MAPPER.readTree(
                "{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"merged\\\":true}\"}],\"isError\":false,\"httpStatus\":200}");
    }

    private WireSamples() {}

    static Actor actor() {
        return new Actor(ActorKind.API_KEY, "user-42", "ops@acme.example", KEY_HASH, "deploy-bot");
    }

    static Policy policy() {
        PolicyMatch match = new PolicyMatch(
                EnumSet.of(Tool.CODE_HOST, Tool.MCP),
                List.of("pull_request.*", "file.delete"),
                EnumSet.of(RiskLevel.HIGH, RiskLevel.CRITICAL),
                List.of("deploy-*"),
                List.of("repository"),
                List.of("acme/*"),
                EnumSet.of(ActionSource.PROXY, ActionSource.MCP),
                AgentIdentity.BOUND);
        return new Policy(POLICY_ID, "Hold risky code-host writes", 10, true, Decision.REQUIRE_APPROVAL, match,
                "Merges and deletions by deploy bots need a human.",
                "action != 'pull_request.merge' || target.branch == 'main'");
    }

    static ToolConnectionConfig toolConnectionConfig() {
        // every field set, whichever tool it belongs to: the wire format does not judge, the decision stream does
        return new ToolConnectionConfig(List.of("acme/api", "acme/web"), "acme", "org-7f3a", "team-42", List.of(
                new ClassificationRule("POST", "/channels/*/messages", "message.send", RiskLevel.LOW),
                new ClassificationRule("*", "/admin/**", "admin.call", RiskLevel.CRITICAL)));
    }

    static ToolConnection toolConnection() {
        return new ToolConnection(Tool.MCP, toolConnectionConfig(), SEALED_ACCESS_TOKEN, SEALED_WEBHOOK_SECRET,
                "https://mcp.acme.example/sse", McpAuthType.TOKEN, McpTransport.SSE, "https://api.acme.example/v3",
                CONNECTION_VERSION);
    }

    /** Every command variant, keyed by its class. */
    static Map<Class<? extends Command>, Command> commands() {
        Map<Class<? extends Command>, Command> commands = new LinkedHashMap<>();
        put(commands, new EvaluateAction(
                Tool.CODE_HOST, "pull_request.merge", RiskLevel.MEDIUM, "deploy-bot", "Deploy Bot", "pull_request",
                "acme/api#128",
                GatewayJson.MAPPER.readTree("{\"merge_method\":\"squash\",\"sha\":\"6dcb09b\",\"labels\":[\"ready\",1,2.5,true,null]}"),
                "alice@acme.example", ActionSource.PROXY, Scope.PROXY, true, sealedHeldCall(), CONNECTION_VERSION, callView(),
                List.of("list_issues", "delete_repository"), conditionInputs()));
        put(commands, new CreateWorkspace("Acme production", "user-42", "ops@acme.example"));
        put(commands, new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.ISSUE_TRACKER, "Tracker agent is looping on comments"));
        put(commands, new UpsertPolicy(policy()));
        put(commands, new DeletePolicy(POLICY_ID));
        put(commands, new SetWorkspaceDefaults(
                new EnumMap<>(Map.of(RiskLevel.MEDIUM, Decision.REQUIRE_APPROVAL, RiskLevel.HIGH, Decision.BLOCK)),
                Duration.ofHours(12), "Europe/Berlin"));
        put(commands, new IssueApiKey(KEY_ID, "ci agent", KEY_HASH, EnumSet.of(Scope.EVALUATE, Scope.MCP),
                Instant.parse("2026-01-01T00:00:00Z"), "deploy-bot", "deploy-*"));
        put(commands, new RevokeApiKey(KEY_ID));
        put(commands, new SetMember("user-43", "bob@acme.example", Role.ADMIN));
        put(commands, new RemoveMember("user-44"));
        put(commands, new SetNotificationSettings(SEALED_WEBHOOK_URL, true, false));
        put(commands, new UpsertToolConnection(Tool.MCP, toolConnectionConfig(), "https://mcp.acme.example/sse",
                McpAuthType.TOKEN, McpTransport.SSE, "https://api.acme.example/v3", SecretUpdate.set(SEALED_ACCESS_TOKEN),
                new SecretUpdate(SecretChange.SET, SEALED_WEBHOOK_SECRET)));
        put(commands, new DeleteToolConnection(Tool.ISSUE_TRACKER));
        put(commands, new RotateWebhookSecret(Tool.CODE_HOST, SEALED_WEBHOOK_SECRET));
        put(commands, new ReviewApproval(DerivedIds.approvalId(COMMAND_ID), ReviewVerdict.APPROVE, "Release window is open"));
        put(commands, new ClaimApprovedCall(DerivedIds.approvalId(COMMAND_ID), EXECUTOR_ID));
        put(commands, new RecordCallExecution(DerivedIds.approvalId(COMMAND_ID), EXECUTOR_ID, ExecutionOutcome.EXECUTED,
                executionResult()));
        put(commands, new ReceiveWebhook(Tool.CODE_HOST, "72d3162e-cc78-11e3-81ab-4c9367dc0958", "pull_request", "opened",
                "octocat", "repository", "acme/api",
                GatewayJson.MAPPER.readTree("{\"action\":\"opened\",\"number\":128,\"repository\":{\"full_name\":\"acme/api\"}}"),
                CONNECTION_VERSION, BODY_DIGEST, "{\"action\":\"opened\",\"number\":128,\"repo", 68));
        put(commands, new CheckAccess(Scope.MCP, Tool.MCP, CONNECTION_VERSION, DerivedIds.approvalId(COMMAND_ID)));
        put(commands, new SetToolAccessToken(Tool.CODE_HOST, SEALED_ACCESS_TOKEN));
        put(commands, new SendTestNotification());
        put(commands, new RecordCallerGaveUp(COMMAND_ID, ACCEPTED_AT, 504));
        put(commands, new io.agentgateway.schemas.command.WithdrawApproval(DerivedIds.approvalId(COMMAND_ID),
                "The agent no longer needs it"));
        put(commands, new io.agentgateway.schemas.command.EraseAuditPayload(DerivedIds.auditLogId(COMMAND_ID),
                "Data subject request DSR-2291"));
        return commands;
    }

    /** Every domain event variant, keyed by its class. */
    static Map<Class<? extends DomainEvent>, DomainEvent> events() {
        Map<Class<? extends DomainEvent>, DomainEvent> events = new LinkedHashMap<>();
        String auditLogId = DerivedIds.auditLogId(COMMAND_ID);
        String approvalId = DerivedIds.approvalId(COMMAND_ID);
        put(events, new ActionEvaluated(
                auditLogId, Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH, RiskLevel.MEDIUM,
                RiskClassification.SERVER_CLASSIFIED, true, Decision.REQUIRE_APPROVAL,
                "Matched policy \"Hold risky code-host writes\"", POLICY_ID, "Hold risky code-host writes", approvalId,
                "deploy-bot", "Deploy Bot", "pull_request", "acme/api#128", "alice@acme.example", ActionSource.PROXY,
                "{\"merge_method\":\"squash\",\"sha\":\"6dc", true, 4096, "open_approvals", Boolean.TRUE,
                AgentIdentity.BOUND, List.of(new ConditionError(POLICY_ID, "Hold risky code-host writes",
                        "key 'branch' is not present in map", true))));
        put(events, new ApprovalRequested(approvalId, auditLogId, Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH,
                "deploy-bot", CALL_DIGEST, EXPIRES_AT, sealedHeldCall(), callView()));
        put(events, new KillSwitchChanged(auditLogId, KillSwitchAction.PAUSE_TOOL, Tool.ISSUE_TRACKER, false,
                EnumSet.of(Tool.ISSUE_TRACKER, Tool.CHAT), "Tracker agent is looping on comments"));
        put(events, new WorkspaceCreated("Acme production", "user-42", "ops@acme.example"));
        put(events, new MemberSet("user-43", "bob@acme.example", Role.ADMIN));
        put(events, new MemberRemoved("user-44"));
        put(events, new PolicyUpserted(policy()));
        put(events, new PolicyDeleted(POLICY_ID));
        put(events, new WorkspaceDefaultsSet(new EnumMap<>(Map.of(
                        RiskLevel.LOW, Decision.ALLOW,
                        RiskLevel.MEDIUM, Decision.REQUIRE_APPROVAL,
                        RiskLevel.HIGH, Decision.BLOCK,
                        RiskLevel.CRITICAL, Decision.BLOCK)),
                Duration.ofHours(12), "Europe/Berlin"));
        put(events, new ApiKeyIssued(KEY_ID, "ci agent", KEY_HASH, EnumSet.of(Scope.EVALUATE, Scope.MCP),
                Instant.parse("2026-01-01T00:00:00Z"), "deploy-bot", "deploy-*"));
        put(events, new ApiKeyRevoked(KEY_ID));
        put(events, new NotificationSettingsSet(true, true));
        put(events, new ToolConnectionUpserted(toolConnection()));
        put(events, new ToolConnectionDeleted(Tool.ISSUE_TRACKER));
        put(events, new WebhookSecretRotated(toolConnection()));
        put(events, new ApprovalReviewed(approvalId, ReviewVerdict.APPROVE, "user-43", "Release window is open",
                ACCEPTED_AT, Tool.CODE_HOST, "pull_request.merge", CALL_DIGEST, HeldCallKind.HTTP_REQUEST));
        put(events, new ApprovalExpired(approvalId, EXPIRES_AT));
        put(events, new EvaluationUndelivered(auditLogId, COMMAND_ID, approvalId, 504));
        put(events, new ApprovedCallClaimed(approvalId, EXECUTOR_ID, ACCEPTED_AT));
        put(events, new ApprovedCallExecuted(approvalId, EXECUTOR_ID, executionResult(), ACCEPTED_AT));
        put(events, new ApprovedCallFailed(approvalId, EXECUTOR_ID, GatewayJson.MAPPER.readTree(
                "{\"content\":[{\"type\":\"text\",\"text\":\"Connection refused\"}],\"isError\":true}"), ACCEPTED_AT));
        put(events, new WebhookReceived(DerivedIds.webhookEventId(COMMAND_ID), Tool.CODE_HOST,
                "72d3162e-cc78-11e3-81ab-4c9367dc0958", "pull_request", "pull_request.opened", true, Decision.ALLOW,
                auditLogId, "{\"action\":\"opened\",\"number\":128}", false, 31));
        put(events, new ApprovedCallCancelled(approvalId, "The workspace kill switch was enabled", ACCEPTED_AT));
        put(events, new LimitReached(auditLogId, "api_keys", 10_000, "issue_api_key",
                "Workspace has reached its limit of 10000 API keys (gateway.decision.limits.api-keys)"));
        put(events, new io.agentgateway.schemas.event.ApprovalWithdrawn(approvalId, "The agent no longer needs it", ACCEPTED_AT));
        put(events, new io.agentgateway.schemas.event.CheckpointIssued("gateway.acme.example/audit/" + WORKSPACE_ID, 1024,
                "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=", CHECKPOINT_NOTE, CHECKPOINT_VKEY));
        put(events, new io.agentgateway.schemas.event.AuditPayloadErased(auditLogId, "Data subject request DSR-2291"));
        return events;
    }

    static CommandEnvelope commandEnvelope(Command command) {
        return new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, COMMAND_ID, WORKSPACE_ID, CORRELATION_ID,
                ACCEPTED_AT, 3, actor(), command, ACCEPTED_AT.plusSeconds(5));
    }

    /** A checkpoint as the decision stream signs it (a signature of another text: the wire does not check it). */
    static final String CHECKPOINT_VKEY = "gateway.acme.example/audit+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
    static final String CHECKPOINT_NOTE = "gateway.acme.example/audit/" + WORKSPACE_ID + "\n1024\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
            + "\n\u2014 gateway.acme.example/audit Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";

    /**
     * The envelope of an event, sealed into its workspace's Merkle log with every field of the seal set (the seal came
     * after the first golden files, which read without it).
     */
    static EventEnvelope eventEnvelope(DomainEvent event) {
        return unsealedEventEnvelope(event).withSeal(new io.agentgateway.schemas.event.EvidenceSeal(1023,
                "bjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB0=",
                List.of("lqKW0iTyhcZ77pPDD4owkVfw2qNdxbh+QQt4YwoJz8c=", "Xwg/ChozygdqlSeYMlgNs+DvRYS9/x9UyKNg9Q3jAx4="),
                "4e0f2b6a2c1f5f8e5b1b1a6f0c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d",
                "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "AAAAFWFndy1ldmlkZW5jZS1lbnRyeS92MQ=="));
    }

    private static EventEnvelope unsealedEventEnvelope(DomainEvent event) {
        return new EventEnvelope(EventEnvelope.CURRENT_VERSION, DerivedIds.eventId(COMMAND_ID, 0), WORKSPACE_ID,
                COMMAND_ID, CORRELATION_ID, ACCEPTED_AT, actor(), 17L, 5L, event);
    }

    static Reply reply() {
        EvaluationOutcome outcome = new EvaluationOutcome(Decision.REQUIRE_APPROVAL,
                "Matched policy \"Hold risky code-host writes\"", POLICY_ID, DerivedIds.approvalId(COMMAND_ID),
                DerivedIds.auditLogId(COMMAND_ID), RiskLevel.HIGH, RiskClassification.SERVER_CLASSIFIED,
                List.of("delete_repository"), ACCEPTED_AT, EXPIRES_AT);
        return new Reply(Reply.CURRENT_VERSION, COMMAND_ID, CORRELATION_ID, WORKSPACE_ID, 3, ReplyStatus.OK,
                "none", outcome, toolConnection(), 17L, new ApprovalSnapshot(DerivedIds.approvalId(COMMAND_ID), "pending",
                        Tool.CODE_HOST, "pull_request.merge", EXPIRES_AT, ACCEPTED_AT, KEY_HASH, HeldCallKind.HTTP_REQUEST));
    }

    static NotificationRequested notification() {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("action", "pause_tool");
        details.put("tool", "issue_tracker");
        details.put("actor", "ops@acme.example");
        return new NotificationRequested(NotificationRequested.CURRENT_VERSION, DerivedIds.notificationId(COMMAND_ID),
                WORKSPACE_ID, CORRELATION_ID, NotificationRequested.KIND_KILL_SWITCH, ACCEPTED_AT,
                "Kill switch: issue_tracker paused in Acme production",
                "ops@acme.example paused the tool issue_tracker.",
                List.of("ops@acme.example", "bob@acme.example"), SEALED_WEBHOOK_URL, details);
    }

    /** Every fact of an approval notice set, as in {@link #notification()}. */
    static NotificationRequested approvalNotification() {
        String approvalId = DerivedIds.approvalId(COMMAND_ID);
        ApprovalRequestNotice notice = new ApprovalRequestNotice(approvalId, DerivedIds.auditLogId(COMMAND_ID),
                "Acme production", "code_host", "pull_request.merge", "high", "mcp", "deploy-bot-7", "Deploy bot",
                "repository", "acme/api", "Merges and deletions by deploy bots need a human.", POLICY_ID,
                EXPIRES_AT.toString(), CALL_DIGEST, callView());
        return new NotificationRequested(NotificationRequested.CURRENT_VERSION, DerivedIds.notificationId(COMMAND_ID),
                WORKSPACE_ID, CORRELATION_ID, NotificationRequested.KIND_APPROVAL_REQUESTED, ACCEPTED_AT,
                "Approval needed: pull_request.merge on code_host (high risk) in Acme production",
                "Agent deploy-bot-7 asks to run pull_request.merge on code_host.",
                List.of("ops@acme.example", "bob@acme.example"), SEALED_WEBHOOK_URL, notice.toDetails());
    }

    private static <V> void put(Map<Class<? extends V>, V> samples, V sample) {
        @SuppressWarnings("unchecked")
        Class<? extends V> type = (Class<? extends V>) sample.getClass();
        samples.put(type, sample);
    }
}
