package io.agentgateway.decisionstream.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.backtest.BacktestRequest;
import io.agentgateway.backtest.HistoryReplay;
import io.agentgateway.backtest.LogSpan;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.decisionstream.topology.DecisionDriver;
import io.agentgateway.decisionstream.topology.Emitted;
import io.agentgateway.decisionstream.topology.TestWorkspace;
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
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.condition.ConditionInputs;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.command.condition.RequestFacts;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.condition.TargetFacts;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.command.UpsertToolConnection;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * More than 10,000 decisions of a workspace whose policies have conditions, driven through the real topology
 * (TopologyTestDriver): the six rules of docs/policies.md and more, replaced, disabled and deleted while evaluations
 * (evaluate-action, MCP and proxy with their condition inputs, webhooks) arrive with payloads that take every path of
 * a condition: true, false, and every kind of error (a missing key, a number sent as a string, the iteration budget,
 * arguments the entry point left out), across time zone changes and days of the week. The back-test, fed the commands
 * topic (the whole inputs) and the events topic, must reproduce every decision exactly: decision, reason, matched
 * policy and the condition errors of the audit entry.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConditionalBacktestTopologyTest {
    private static final Instant EPOCH = Instant.EPOCH;
    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");
    private static final int EVALUATIONS = 10_200;

    /** Conditional rules: lists, decision and condition. */
    private record Rule(Set<Tool> tools, List<String> actions, Decision decision, String condition) {}

    private static final List<Rule> RULES = List.of(
            new Rule(Set.of(Tool.CODE_HOST), List.of("file.write"), Decision.BLOCK, "target.path.startsWith('.github/workflows/')"),
            new Rule(Set.of(Tool.CODE_HOST), List.of("pull_request.merge"), Decision.REQUIRE_APPROVAL,
                    "target.repository in ['acme/api', 'acme/payments'] && target.branch == 'main'"),
            new Rule(Set.of(Tool.ISSUE_TRACKER), List.of("issue.delete"), Decision.BLOCK, "!('deletable' in target.labels)"),
            new Rule(Set.of(Tool.CHAT), List.of("message.send"), Decision.REQUIRE_APPROVAL, "!(args.channel in ['C-ENG', 'C-OPS'])"),
            new Rule(Set.of(Tool.MCP), List.of("transfer_funds"), Decision.REQUIRE_APPROVAL, "args.amount > 1000"),
            new Rule(Set.of(), List.of("read"), Decision.ALLOW,
                    "!(time.weekday in ['saturday', 'sunday']) && time.hour >= 9 && time.hour < 18"),
            new Rule(Set.of(Tool.MCP), List.of("transfer_funds"), Decision.ALLOW, "args.amount < 100"),
            new Rule(Set.of(), List.of(), Decision.BLOCK, "requestedBy == 'mallory'"),
            new Rule(Set.of(Tool.CODE_HOST), List.of("push", "pull_request.*"), Decision.ALLOW,
                    "source == 'webhook' && target.branch != 'main'"),
            new Rule(Set.of(Tool.MCP, Tool.INTERNAL_API), List.of(), Decision.BLOCK, "args.items.exists(i, i > 5)"),
            new Rule(Set.of(Tool.MCP), List.of("write_file"), Decision.REQUIRE_APPROVAL,
                    "normalizePath(args.path).startsWith('secrets/')"),
            new Rule(Set.of(Tool.CODE_HOST), List.of(), Decision.BLOCK,
                    "request.method == 'DELETE' && request.path.size() > 3 && request.path[3] == 'git'"));

    DecisionDriver driver;
    TestWorkspace workspace;
    final Random random = new Random(20261128L);
    final Map<String, Policy> livePolicies = new HashMap<>();
    int evaluations;
    int reEmittedEvents;
    Instant policiesStable;
    String webhookVerifierKey;

    @BeforeAll
    void driveOneHistory(@TempDir Path stateDir) {
        driver = new DecisionDriver(DecisionSettings.defaults().withApprovalTtl(Duration.ofMinutes(2)), stateDir,
                ProcessingGuarantee.EXACTLY_ONCE_V2);
        workspace = TestWorkspace.create(driver);
        workspace.admin(new UpsertToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(List.of("acme/api"), null, null, null),
                null, null, null, null, null, null)).ok();
        for (int i = 0; i < 6; i++) {
            changePolicies();
        }
        while (evaluations < EVALUATIONS - 1_500) {
            step(true);
        }
        policiesStable = workspace.now();
        while (evaluations < EVALUATIONS) {
            step(false);
        }
    }

    @AfterAll
    void stop() {
        driver.close();
    }

    @Test
    void theLivePoliciesReproduceEveryConditionalDecision() {
        BacktestReport report = backtest(List.of(), EPOCH, FAR);

        assertThat(report.mismatches()).isEmpty();
        assertThat(report.totals().mismatches()).isZero();
        assertThat(report.totals().evaluated()).isEqualTo(evaluations).isGreaterThanOrEqualTo(10_000);
        assertThat(report.history().inputsMissing()).isZero();
        assertThat(report.history().versionGaps()).isZero();
        assertThat(report.history().duplicates()).isEqualTo(reEmittedEvents).isPositive();
        List<ActionEvaluated> recorded = recorded();
        assertThat(recorded).as("the history takes every path of a condition")
                .anyMatch(e -> e.reason().startsWith("Matched policy") && e.conditionErrors() == null && isConditional(e.matchedPolicyId()))
                .anyMatch(e -> e.reason().contains("(its condition could not be evaluated: "))
                .anyMatch(e -> e.conditionErrors() != null && e.conditionErrors().stream().anyMatch(c -> !c.countedAsMatch()))
                .anyMatch(e -> hasError(e, "Iteration budget exceeded"))
                .anyMatch(e -> hasError(e, "No matching overload"))
                .anyMatch(e -> hasError(e, "is not present in map"))
                .anyMatch(e -> hasError(e, "args were not carried"))
                .anyMatch(e -> e.reason().startsWith("No policy matched"))
                .anyMatch(e -> e.source() == ActionSource.WEBHOOK)
                .anyMatch(e -> e.decision() == Decision.REQUIRE_APPROVAL)
                .anyMatch(e -> e.decision() == Decision.BLOCK)
                .anyMatch(e -> e.decision() == Decision.ALLOW);
    }

    @Test
    void theLivePolicySetAsCandidateChangesNothingWhileThePoliciesStayedTheSame() {
        BacktestReport report = backtest(List.copyOf(livePolicies.values()), policiesStable, FAR);

        assertThat(report.totals().evaluated()).isGreaterThan(1_000);
        assertThat(report.totals().changed()).isZero();
        assertThat(report.totals().mismatches()).isZero();
    }

    @Test
    void aConditionalCandidateChangesOnlyTheCallsItsConditionSelects() {
        Policy blockAbove500 = new Policy(UUID.randomUUID().toString(), "block transfers over 500", -100, true, Decision.BLOCK,
                new PolicyMatch(Set.of(Tool.MCP), List.of("transfer_funds"), Set.of(), List.of(), List.of(), List.of(), Set.of()),
                null, "args.amount > 500");
        List<Policy> candidate = new ArrayList<>(livePolicies.values());
        candidate.add(blockAbove500);

        BacktestReport report = backtest(candidate, policiesStable, FAR);

        // the live policies with one more in front: it blocks the transfers over 500 and, fail closed, those whose amount
        // it cannot read; the kill switch and pauses come first; nothing else changes
        Map<String, CommandEnvelope> commands = commandsByAuditId();
        List<ActionEvaluated> expected = recorded().stream()
                .filter(e -> !eventTime(e).isBefore(policiesStable))
                .filter(e -> !e.reason().equals("Workspace kill switch is enabled") && !e.reason().endsWith(" is paused"))
                .filter(e -> e.tool() == Tool.MCP && e.action().equals("transfer_funds") && e.decision() != Decision.BLOCK)
                .filter(e -> {
                    JsonNode amount = arguments(commands.get(e.auditLogId())).get("amount");
                    return amount == null || !amount.isNumber() || amount.doubleValue() > 500;
                }).toList();
        assertThat(report.totals().mismatches()).isZero();
        assertThat(expected).hasSizeGreaterThan(10);
        assertThat(report.totals().changed()).isEqualTo(expected.size());
        assertThat(report.transitions()).allSatisfy(t -> assertThat(t.to()).isEqualTo(Decision.BLOCK));
        assertThat(report.byAction()).singleElement().satisfies(group -> {
            assertThat(group.action()).isEqualTo("transfer_funds");
            assertThat(group.exampleAuditIds()).containsExactlyElementsOf(
                    expected.stream().limit(5).map(ActionEvaluated::auditLogId).toList());
        });
    }

    // ---- the history ----

    private void step(boolean policiesMayChange) {
        int roll = random.nextInt(1000);
        if (policiesMayChange && roll < 15) {
            CommandEnvelope change = changePolicies();
            if (roll < 2) {
                reEmittedEvents += driver.send(change).events().size();
            }
        } else if (roll < 30) {
            changeSomethingButThePolicies();
        } else if (roll < 33) {
            redeliverAnEvaluation();
        } else {
            evaluate(randomEnvelope());
        }
        // minutes to hours between commands: business hours and weekdays come and go
        workspace.advance(Duration.ofMinutes(random.nextInt(90)));
    }

    private void evaluate(CommandEnvelope envelope) {
        Emitted emitted = driver.send(envelope);
        emitted.evaluation();
        evaluations++;
    }

    private void redeliverAnEvaluation() {
        CommandEnvelope envelope = randomEnvelope();
        evaluate(envelope);
        reEmittedEvents += driver.send(envelope).events().size();
    }

    private CommandEnvelope randomEnvelope() {
        int kind = random.nextInt(10);
        if (kind == 0) {
            return workspace.envelope(Actor.system("webhook-verifier"), webhook());
        }
        return workspace.envelope(workspace.agent(workspace.evaluateKeyHash()), kind < 4 ? evaluateAction() : gatedCall(kind < 7));
    }

    /** An evaluate-action: the payload is the whole arguments. */
    private EvaluateAction evaluateAction() {
        String[] pick = pick(List.of(
                new String[] {"code_host", "file.write"}, new String[] {"code_host", "pull_request.merge"},
                new String[] {"code_host", "read"}, new String[] {"issue_tracker", "issue.delete"},
                new String[] {"issue_tracker", "read"}, new String[] {"chat", "message.send"}, new String[] {"mcp", "transfer_funds"},
                new String[] {"mcp", "write_file"}, new String[] {"internal_api", "deploy.run"}, new String[] {"docs", "read"}));
        Tool tool = Tool.parse(pick[0]).orElseThrow();
        return new EvaluateAction(tool, pick[1], pick(List.of(RiskLevel.values())), pick(List.of("bot-1", "bot-2")), null,
                "repository", pick(List.of("acme/api", "Acme/API#3", "acme/docs", "acme/payments")), payload(pick[1]),
                pick(List.of("alice", "bob", "mallory")), ActionSource.EVALUATE, Scope.EVALUATE, false);
    }

    /** A call of the MCP gate or the proxy: the arguments and facts in its condition inputs, the payload an excerpt. */
    private EvaluateAction gatedCall(boolean mcp) {
        JsonNode excerpt = GatewayJson.MAPPER.readTree("{\"excerpt\":true}");
        if (mcp) {
            String action = pick(List.of("transfer_funds", "write_file", "send_message", "read_account"));
            boolean leftOut = random.nextInt(40) == 0;
            ConditionInputs inputs = new ConditionInputs(leftOut ? null : payload(action), leftOut ? 70_000 : null, null, null, null);
            return new EvaluateAction(Tool.MCP, action, RiskLevel.MEDIUM, "bot-3", null, null, null, excerpt, null,
                    ActionSource.MCP, Scope.EVALUATE, false).withConditionInputs(inputs);
        }
        String action = pick(List.of("pull_request.merge", "file.write", "ref.delete", "read"));
        String repo = pick(List.of("api", "docs", "payments"));
        List<String> path = switch (action) {
            case "pull_request.merge" -> List.of("repos", "acme", repo, "pulls", "12", "merge");
            case "file.write" -> List.of("repos", "acme", repo, "contents", ".github", "workflows", "ci.yml");
            case "ref.delete" -> List.of("repos", "acme", repo, "git", "refs", "heads", "dev");
            default -> List.of("repos", "acme", repo, "issues");
        };
        String method = switch (action) {
            case "pull_request.merge" -> "PUT";
            case "file.write" -> "PUT";
            case "ref.delete" -> "DELETE";
            default -> "GET";
        };
        String branch = action.equals("pull_request.merge") ? pick(List.of("refs/heads/main", "main", "dev")) : null;
        boolean lookedUp = branch != null || !action.equals("pull_request.merge");
        TargetFacts target = new TargetFacts(pick(List.of("acme", "ACME")), repo, random.nextInt(5) == 0 ? null : branch,
                action.equals("file.write") ? pick(List.of(".github/workflows/ci.yml", "src/app.py")) : null, null, null, null);
        ConditionInputs inputs = new ConditionInputs(payload(action), null,
                new RequestFacts(method, path, Map.of(), null, null), target,
                lookedUp && target.branch() != null ? null : List.of("target.branch"));
        return new EvaluateAction(Tool.CODE_HOST, action, RiskLevel.MEDIUM, "bot-4", null, "repository", "acme/" + repo, excerpt,
                null, ActionSource.PROXY, Scope.EVALUATE, false).withConditionInputs(inputs);
    }

    private ReceiveWebhook webhook() {
        String ref = pick(List.of("refs/heads/main", "refs/heads/feature", "refs/heads/MAIN"));
        JsonNode payload = GatewayJson.MAPPER.readTree("{\"ref\":\"" + ref + "\",\"repository\":{\"full_name\":\"acme/api\","
                + "\"name\":\"api\",\"owner\":{\"login\":\"acme\"}},\"items\":[" + random.nextInt(9) + "]}");
        return new ReceiveWebhook(Tool.CODE_HOST, UUID.randomUUID().toString(), pick(List.of("push", "pull_request")),
                pick(List.of("opened", "closed")), "octocat", "repository", "acme/api", payload);
    }

    /** Arguments that take every path of the rules' conditions. */
    private JsonNode payload(String action) {
        Map<String, Object> payload = new HashMap<>();
        switch (action) {
            case "transfer_funds" -> {
                switch (random.nextInt(6)) {
                    case 0 -> payload.put("amount", random.nextInt(3000));
                    case 1 -> payload.put("amount", random.nextInt(3000) + 0.5);
                    case 2 -> payload.put("amount", Integer.toString(random.nextInt(3000)));
                    case 3 -> payload.put("currency", "EUR");
                    default -> payload.put("amount", random.nextInt(200));
                }
            }
            case "file.write", "write_file" -> payload.put("path", pick(List.of(".github/workflows/ci.yml",
                    ".github/./workflows//ci.yml", "%2egithub/workflows/x.yml", ".GITHUB/WORKFLOWS/x.yml", "src/app.py",
                    "secrets/../secrets/key.pem", "Secrets/token")));
            case "pull_request.merge" -> {
                if (random.nextInt(4) > 0) {
                    payload.put("base", pick(List.of("main", "refs/heads/main", "release")));
                }
            }
            case "issue.delete" -> {
                if (random.nextInt(4) > 0) {
                    payload.put("labels", random.nextBoolean() ? List.of("Deletable") : List.of("bug"));
                }
            }
            case "message.send", "send_message" -> {
                if (random.nextInt(5) > 0) {
                    payload.put("channel", pick(List.of("C-ENG", "C-OPS", "C-PARTNER", "ext-acme")));
                }
            }
            default -> {
            }
        }
        if (random.nextInt(8) == 0) {
            // comprehensions: sometimes past the iteration budget
            int size = random.nextBoolean() ? random.nextInt(10) : 1_001 + random.nextInt(100);
            payload.put("items", IntStream.range(0, size).map(i -> random.nextInt(5)).boxed().collect(Collectors.toList()));
        }
        return GatewayJson.MAPPER.valueToTree(payload);
    }

    private CommandEnvelope changePolicies() {
        CommandEnvelope envelope;
        int roll = random.nextInt(10);
        if (livePolicies.size() < 4 || roll < 5) {
            Policy policy = randomPolicy(UUID.randomUUID().toString());
            envelope = workspace.envelope(workspace.owner, new UpsertPolicy(policy));
            livePolicies.put(policy.id(), policy);
        } else if (roll < 8) {
            Policy replaced = randomPolicy(pick(List.copyOf(livePolicies.keySet())));
            envelope = workspace.envelope(workspace.owner, new UpsertPolicy(replaced));
            livePolicies.put(replaced.id(), replaced);
        } else {
            String id = pick(List.copyOf(livePolicies.keySet()));
            envelope = workspace.envelope(workspace.owner, new io.agentgateway.schemas.command.DeletePolicy(id));
            livePolicies.remove(id);
        }
        driver.send(envelope).ok();
        return envelope;
    }

    private Policy randomPolicy(String id) {
        Rule rule = pick(RULES);
        boolean conditional = random.nextInt(8) > 0;
        return new Policy(id, "policy " + id.substring(0, 6), random.nextInt(10) * 10, random.nextInt(8) > 0, rule.decision(),
                new PolicyMatch(rule.tools(), rule.actions(), Set.of(), List.of(), List.of(), List.of(), Set.of()), null,
                conditional ? rule.condition() : null);
    }

    private void changeSomethingButThePolicies() {
        switch (random.nextInt(7)) {
            case 0 -> workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
            case 1, 2 -> workspace.admin(new SetKillSwitch(KillSwitchAction.DISABLE, null)).ok();
            case 3 -> workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, pick(List.of(Tool.values())))).ok();
            case 4 -> workspace.admin(new SetKillSwitch(KillSwitchAction.RESUME_TOOL, pick(List.of(Tool.values())))).ok();
            case 5 -> workspace.admin(new SetWorkspaceDefaults(null, null,
                    pick(List.of("UTC", "Europe/Berlin", "America/Los_Angeles", "Asia/Tokyo")))).ok();
            default -> workspace.admin(new SetWorkspaceDefaults(Map.of(pick(List.of(RiskLevel.values())),
                    pick(List.of(Decision.values()))), null)).ok();
        }
    }

    // ---- reading the records ----

    private BacktestReport backtest(List<Policy> candidate, Instant from, Instant to) {
        HistoryReplay replay = new HistoryReplay(new BacktestRequest(workspace.id, candidate, from, to), 5);
        driver.commandLog().forEach(replay::acceptCommand);
        List<EventEnvelope> log = driver.eventLog();
        log.stream().filter(e -> e.workspaceId().equals(workspace.id)).forEach(replay::accept);
        return replay.report(LogSpan.inMemory(log.size()), driver.commandLog().size());
    }

    private List<ActionEvaluated> recorded() {
        Set<String> seen = new HashSet<>();
        List<ActionEvaluated> evaluated = new ArrayList<>();
        for (EventEnvelope envelope : driver.eventLog()) {
            if (envelope.event() instanceof ActionEvaluated e && seen.add(e.auditLogId())) {
                evaluated.add(e);
                eventTimes.put(e.auditLogId(), envelope.occurredAt());
            }
        }
        return evaluated;
    }

    private final Map<String, Instant> eventTimes = new HashMap<>();

    private Instant eventTime(ActionEvaluated evaluated) {
        return eventTimes.get(evaluated.auditLogId());
    }

    private Map<String, CommandEnvelope> commandsByAuditId() {
        Map<String, CommandEnvelope> byAuditId = new HashMap<>();
        for (CommandEnvelope envelope : driver.commandLog()) {
            byAuditId.putIfAbsent(io.agentgateway.schemas.DerivedIds.auditLogId(envelope.commandId()), envelope);
        }
        return byAuditId;
    }

    private static JsonNode arguments(CommandEnvelope envelope) {
        EvaluateAction action = (EvaluateAction) envelope.command();
        if (action.conditionInputs() != null) {
            return action.conditionInputs().arguments() == null ? GatewayJson.MAPPER.createObjectNode()
                    : action.conditionInputs().arguments();
        }
        return action.payload();
    }

    private boolean isConditional(String policyId) {
        return driver.eventLog().stream().anyMatch(e -> e.event() instanceof io.agentgateway.schemas.event.PolicyUpserted u
                && u.policy().id().equals(policyId) && u.policy().hasCondition());
    }

    private static boolean hasError(ActionEvaluated evaluated, String text) {
        return evaluated.conditionErrors() != null && evaluated.conditionErrors().stream().anyMatch(c -> c.error().contains(text));
    }

    private <T> T pick(List<T> items) {
        return items.get(random.nextInt(items.size()));
    }
}
