package io.agentgateway.benchmark.data;

import io.agentgateway.decisioncore.core.DecisionCore;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.state.InMemoryWorkspace;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * A workspace's history decided by the decision core ({@code DecisionCore}, what the topology's
 * {@code CommandProcessor} does, without its stores): mostly evaluations of every tool by a handful of agents with small JSON
 * payloads, and now and then a policy created, replaced or deleted, a defaults change, the kill switch
 * or a tool pause. The events are exactly what the topology would emit, so a back-test of them under
 * the live policies must reproduce every decision.
 */
public final class DecidedHistory {
    private static final Map<Tool, List<String>> ACTIONS = Map.of(
            Tool.CODE_HOST, List.of("read", "pull_request.merge", "pull_request.create", "file.write", "issues.create", "repo.list"),
            Tool.ISSUE_TRACKER, List.of("read", "issue.create", "issue.update", "comment.create", "issue.delete"),
            Tool.CHAT, List.of("message.send", "channel.archive", "user.list"),
            Tool.DOCS, List.of("page.read", "page.update", "page.delete"),
            Tool.INTERNAL_API, List.of("deploy.run", "users.list", "cache.drop"),
            Tool.MCP, List.of("search_code", "create_issue", "delete_repository"));
    private static final String KEY_HASH = "ab".repeat(32);
    private static final List<String> AGENTS = List.of("bot-1", "bot-2", "release-bot", "human-ada", "human-lin", "deploy-7");

    public final String workspaceId = UUID.randomUUID().toString();
    private final Random random = new Random(42);
    // nothing sweeps expired approvals outside the topology: no limit on them, so every decision is the policies'
    private final DecisionCore core = new DecisionCore(DecisionSettings.defaults().withApprovalTtl(Duration.ofMinutes(2))
            .withLimits(DecisionLimits.defaults().withOpenApprovals(Long.MAX_VALUE)));
    private final Actor owner = Actor.user("bench-owner", "owner@bench.local");
    private final List<String> policyIds = new ArrayList<>();
    private final Actor agent;
    private final InMemoryWorkspace workspace = new InMemoryWorkspace(Duration.ofMinutes(2));
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    public DecidedHistory() {
        agent = Actor.apiKey(KEY_HASH, "bench-agent");
    }

    /**
     * Creates the workspace and its agent key, then decides commands until {@code events} events were
     * emitted, handing each to {@code sink} in log order.
     */
    public long emit(long events, Consumer<EventEnvelope> sink) {
        long[] emitted = {0};
        Consumer<EventEnvelope> counting = event -> {
            emitted[0]++;
            sink.accept(event);
        };
        decide(owner, new CreateWorkspace("benchmark"), counting);
        decide(owner, new IssueApiKey(UUID.randomUUID().toString(), "bench", KEY_HASH, EnumSet.of(Scope.EVALUATE), null), counting);
        while (emitted[0] < events) {
            int roll = random.nextInt(1000);
            if (roll < 8) {
                decide(owner, policyChange(), counting);
            } else if (roll < 12) {
                decide(owner, otherChange(), counting);
            } else {
                decide(agent, evaluation(), counting);
            }
        }
        return emitted[0];
    }

    public Instant now() {
        return now;
    }

    private void decide(Actor actor, Command command, Consumer<EventEnvelope> sink) {
        CommandEnvelope envelope = new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(), workspaceId,
                UUID.randomUUID().toString(), now, null, actor, command);
        now = now.plusMillis(50);
        core.decide(envelope, workspace).events().forEach(sink);
    }

    private EvaluateAction evaluation() {
        Tool tool = pick(List.of(Tool.values()));
        String action = pick(ACTIONS.get(tool));
        ObjectNode payload = GatewayJson.MAPPER.createObjectNode();
        payload.put("repository", pick(List.of("payments", "docs-site", "infra", "mobile")));
        payload.put("ref", "refs/heads/feature-" + random.nextInt(500));
        payload.put("title", "Change " + random.nextInt(100_000) + ": update the configuration of the service");
        payload.putArray("labels").add("automated").add(pick(List.of("security", "release", "chore")));
        return new EvaluateAction(tool, action, pick(List.of(RiskLevel.values())), pick(AGENTS), "Agent", "repo",
                payload.get("repository").asString(), payload, "someone@bench.local", pick(List.of(ActionSource.values())),
                Scope.EVALUATE, false);
    }

    private Command policyChange() {
        if (!policyIds.isEmpty() && random.nextInt(4) == 0) {
            return new DeletePolicy(policyIds.remove(random.nextInt(policyIds.size())));
        }
        String id = !policyIds.isEmpty() && random.nextBoolean() ? pick(policyIds) : UUID.randomUUID().toString();
        if (!policyIds.contains(id)) {
            policyIds.add(id);
        }
        PolicyMatch match = switch (random.nextInt(4)) {
            case 0 -> new PolicyMatch(Set.of(pick(List.of(Tool.values()))), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of());
            case 1 -> new PolicyMatch(Set.of(), List.of(pick(List.of("pull_request.*", "*.delete", "page.*"))), Set.of(),
                    List.of(), List.of(), List.of(), Set.of());
            case 2 -> new PolicyMatch(Set.of(), List.of(), Set.of(pick(List.of(RiskLevel.values()))),
                    List.of(pick(List.of("bot-*", "human-*"))), List.of(), List.of(), Set.of());
            default -> new PolicyMatch(Set.of(), List.of(), Set.of(), List.of(), List.of("repo"), List.of("pay*"), Set.of());
        };
        return new UpsertPolicy(new Policy(id, "policy " + id.substring(0, 8), random.nextInt(10) * 10, random.nextInt(5) > 0,
                pick(List.of(Decision.values())), match, null));
    }

    private Command otherChange() {
        return switch (random.nextInt(5)) {
            case 0 -> new SetKillSwitch(KillSwitchAction.ENABLE, null);
            case 1 -> new SetKillSwitch(KillSwitchAction.DISABLE, null);
            case 2 -> new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, pick(List.of(Tool.values())));
            case 3 -> new SetKillSwitch(KillSwitchAction.RESUME_TOOL, pick(List.of(Tool.values())));
            default -> new SetWorkspaceDefaults(Map.of(pick(List.of(RiskLevel.values())), pick(List.of(Decision.values()))), null);
        };
    }

    private <T> T pick(List<T> items) {
        return items.get(random.nextInt(items.size()));
    }
}
