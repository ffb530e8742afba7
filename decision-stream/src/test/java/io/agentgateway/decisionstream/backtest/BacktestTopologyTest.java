package io.agentgateway.decisionstream.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.backtest.BacktestRequest;
import io.agentgateway.backtest.HistoryReplay;
import io.agentgateway.backtest.LogSpan;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.decisioncore.state.BuiltInDefaults;
import io.agentgateway.decisionstream.topology.DecisionDriver;
import io.agentgateway.decisionstream.topology.Emitted;
import io.agentgateway.decisionstream.topology.TestWorkspace;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.SetKillSwitch;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.EventEnvelope;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A realistic history driven through the real topology (TopologyTestDriver): policies created,
 * replaced, disabled and deleted, defaults changed, the kill switch and tool pauses toggled, thousands
 * of evaluations, redelivered commands. The events the topology emitted are then back-tested: under the
 * policies that were live every decision must come out exactly as recorded, and candidates must change
 * exactly what an independent reading of the records says they change.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BacktestTopologyTest {
    private static final Instant EPOCH = Instant.EPOCH;
    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");
    private static final Map<Tool, List<String>> ACTIONS = Map.of(
            Tool.CODE_HOST, List.of("read", "pull_request.merge", "pull_request.create", "file.write", "file.delete",
                    "issues.create", "repo.list", "branch.remove"),
            Tool.ISSUE_TRACKER, List.of("read", "issue.create", "issue.delete", "comment.create", "project.archive"),
            Tool.CHAT, List.of("message.send", "channel.archive", "user.list"),
            Tool.DOCS, List.of("page.read", "page.update", "page.delete"),
            Tool.INTERNAL_API, List.of("deploy.run", "users.list", "cache.drop"),
            Tool.MCP, List.of("delete_repository", "search_code", "create_issue"));
    private static final List<String> AGENTS = List.of("bot-1", "bot-2", "human-ada", "deploy-7");

    DecisionDriver driver;
    TestWorkspace workspace;
    final Random random = new Random(20260301L);
    final Map<String, Policy> livePolicies = new LinkedHashMap<>();
    /** The test's own account of the defaults, and of the default each evaluation had when it was decided. */
    final Map<RiskLevel, Decision> defaults = new EnumMap<>(BuiltInDefaults.decisions());
    final Map<String, Decision> defaultWhenDecided = new HashMap<>();
    int evaluations;
    int reEmittedEvents;
    /** From here on the policies stayed as they were; the kill switch, pauses and defaults kept changing. */
    Instant policiesStable;

    /**
     * One history for all tests: the driver flushes its RocksDB stores after every record, so each
     * command costs milliseconds and the history is built once.
     */
    @BeforeAll
    void driveOneHistory(@TempDir Path stateDir) {
        // approvals pile up in the workspace state until they expire: a short TTL keeps the state small
        driver = new DecisionDriver(DecisionSettings.defaults().withApprovalTtl(Duration.ofMinutes(2)), stateDir,
                ProcessingGuarantee.EXACTLY_ONCE_V2);
        workspace = TestWorkspace.create(driver);
        driveHistory(1_600);
        policiesStable = workspace.now();
        for (int i = 0; i < 400; i++) {
            if (random.nextInt(100) < 6) {
                changeSomethingButThePolicies();
            } else {
                evaluate();
            }
        }
    }

    @AfterAll
    void stop() {
        driver.close();
    }

    @Test
    void theLivePoliciesReproduceEveryDecisionOfARealisticHistory() {
        BacktestReport report = backtest(List.of(), EPOCH, FAR);

        assertThat(report.mismatches()).isEmpty();
        assertThat(report.totals().mismatches()).isZero();
        assertThat(report.totals().evaluated()).isEqualTo(evaluations);
        assertThat(report.history().versionGaps()).isZero();
        assertThat(report.history().undecodable()).isZero();
        assertThat(report.history().duplicates()).isEqualTo(reEmittedEvents).isPositive();
        assertThat(report.history().workspaceEvents() + report.history().duplicates())
                .isEqualTo(driver.eventLog().stream().filter(e -> e.workspaceId().equals(workspace.id)).count());
        assertThat(recorded().stream().map(ActionEvaluated::reason))
                .as("the history exercises every step of the decision order")
                .anyMatch(r -> r.equals("Workspace kill switch is enabled"))
                .anyMatch(r -> r.endsWith(" is paused"))
                .anyMatch(r -> r.startsWith("Matched policy"))
                .anyMatch(r -> r.startsWith("No policy matched"));
    }

    @Test
    void aCandidateChangesExactlyWhatTheRecordsSayItWould() {
        Policy blockDocs = new Policy(UUID.randomUUID().toString(), "no docs", -100, true, Decision.BLOCK,
                new PolicyMatch(Set.of(Tool.DOCS), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of()), null);

        BacktestReport report = backtest(List.of(blockDocs), EPOCH, FAR);

        // the kill switch and pauses come first; then the candidate blocks every docs call, and every other
        // call falls through to the default of its risk level as it was at the time
        List<ActionEvaluated> expected = recorded().stream()
                .filter(e -> !e.reason().equals("Workspace kill switch is enabled") && !e.reason().endsWith(" is paused"))
                .filter(e -> e.decision() != (e.tool() == Tool.DOCS ? Decision.BLOCK : defaultWhenDecided.get(e.auditLogId())))
                .toList();
        long docs = expected.stream().filter(e -> e.tool() == Tool.DOCS).count();
        assertThat(expected).hasSizeGreaterThan(20);
        assertThat(report.totals().mismatches()).isZero();
        assertThat(report.totals().changed()).isEqualTo(expected.size());
        assertThat(report.transitions().stream().mapToLong(BacktestReport.Transition::count).sum()).isEqualTo(expected.size());
        assertThat(report.transitions().stream().filter(t -> t.to() == Decision.BLOCK).mapToLong(BacktestReport.Transition::count).sum())
                .isGreaterThanOrEqualTo(docs);
        assertThat(report.byTool()).filteredOn(group -> group.tool() == Tool.DOCS).singleElement().satisfies(group -> {
            assertThat(group.changed()).isEqualTo(docs);
            assertThat(group.exampleAuditIds()).containsExactlyElementsOf(expected.stream()
                    .filter(e -> e.tool() == Tool.DOCS).limit(5).map(ActionEvaluated::auditLogId).toList());
        });
        assertThat(report.byTool().stream().mapToLong(BacktestReport.ToolChanges::changed).sum()).isEqualTo(expected.size());
        assertThat(report.byAction().stream().mapToLong(BacktestReport.ActionChanges::changed).sum()).isEqualTo(expected.size());
        assertThat(report.byAgent().stream().mapToLong(BacktestReport.AgentChanges::changed).sum()).isEqualTo(expected.size());
    }

    @Test
    void theLivePolicySetAsCandidateChangesNothingWhileThePoliciesStayedTheSame() {
        BacktestReport report = backtest(List.copyOf(livePolicies.values()), policiesStable, FAR);

        assertThat(report.totals().evaluated()).isGreaterThan(300);
        assertThat(report.totals().changed()).isZero();
        assertThat(report.totals().mismatches()).isZero();
        assertThat(report.transitions()).isEmpty();
    }

    private BacktestReport backtest(List<Policy> candidate, Instant from, Instant to) {
        HistoryReplay replay = new HistoryReplay(new BacktestRequest(workspace.id, candidate, from, to), 5);
        List<EventEnvelope> log = driver.eventLog();
        log.stream().filter(e -> e.workspaceId().equals(workspace.id)).forEach(replay::accept);
        return replay.report(LogSpan.inMemory(log.size()));
    }

    /** Every recorded evaluation once (re-emitted copies left out), in log order. */
    private List<ActionEvaluated> recorded() {
        Set<String> seen = new HashSet<>();
        List<ActionEvaluated> evaluated = new ArrayList<>();
        for (EventEnvelope envelope : driver.eventLog()) {
            if (envelope.event() instanceof ActionEvaluated e && seen.add(e.auditLogId())) {
                evaluated.add(e);
            }
        }
        return evaluated;
    }

    private void driveHistory(int steps) {
        CommandEnvelope earlierPolicyChange = null;
        for (int step = 0; step < steps; step++) {
            int roll = random.nextInt(100);
            if (roll < 4) {
                earlierPolicyChange = changePolicies();
            } else if (roll < 8) {
                changeSomethingButThePolicies();
            } else {
                evaluate();
            }
            if (step % 400 == 399) {
                redeliverAnEvaluation();
                if (earlierPolicyChange != null) {
                    // a policy change delivered again much later: its stored outcome is re-emitted with its old
                    // version, and must not turn the replayed policies back
                    reEmittedEvents += driver.send(earlierPolicyChange).events().size();
                }
            }
        }
    }

    private void evaluate() {
        remember(workspace.evaluate(randomAction()));
    }

    private void redeliverAnEvaluation() {
        CommandEnvelope envelope = workspace.envelope(workspace.agent(workspace.evaluateKeyHash()), randomAction());
        remember(driver.send(envelope));
        reEmittedEvents += driver.send(envelope).events().size();
    }

    private void remember(Emitted emitted) {
        emitted.evaluation();
        ActionEvaluated evaluated = emitted.event(0, ActionEvaluated.class);
        defaultWhenDecided.put(evaluated.auditLogId(), defaults.get(evaluated.riskLevel()));
        evaluations++;
    }

    private EvaluateAction randomAction() {
        Tool tool = pick(List.of(Tool.values()));
        TestWorkspace.ActionBuilder action = TestWorkspace.action(tool, pick(ACTIONS.get(tool)), pick(List.of(RiskLevel.values())))
                .agent(pick(AGENTS))
                .source(pick(List.of(ActionSource.values())));
        if (random.nextBoolean()) {
            action.resource("repo", pick(List.of("payments", "docs-site", "infra")));
        }
        return action.build();
    }

    /** Creates, replaces, disables or deletes a policy; returns the command so that it can be delivered again. */
    private CommandEnvelope changePolicies() {
        int roll = random.nextInt(10);
        CommandEnvelope envelope;
        if (livePolicies.isEmpty() || roll < 4) {
            Policy policy = randomPolicy(UUID.randomUUID().toString());
            envelope = workspace.envelope(workspace.owner, new UpsertPolicy(policy));
            livePolicies.put(policy.id(), policy);
        } else if (roll < 8) {
            Policy replaced = randomPolicy(pick(List.copyOf(livePolicies.keySet())));
            envelope = workspace.envelope(workspace.owner, new UpsertPolicy(replaced));
            livePolicies.put(replaced.id(), replaced);
        } else {
            String id = pick(List.copyOf(livePolicies.keySet()));
            envelope = workspace.envelope(workspace.owner, new DeletePolicy(id));
            livePolicies.remove(id);
        }
        driver.send(envelope).ok();
        return envelope;
    }

    private void changeSomethingButThePolicies() {
        switch (random.nextInt(5)) {
            case 0 -> workspace.admin(new SetKillSwitch(KillSwitchAction.ENABLE, null)).ok();
            case 1 -> workspace.admin(new SetKillSwitch(KillSwitchAction.DISABLE, null)).ok();
            case 2 -> workspace.admin(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, pick(List.of(Tool.values())))).ok();
            case 3 -> workspace.admin(new SetKillSwitch(KillSwitchAction.RESUME_TOOL, pick(List.of(Tool.values())))).ok();
            default -> {
                RiskLevel risk = pick(List.of(RiskLevel.values()));
                Decision decision = pick(List.of(Decision.values()));
                workspace.admin(new SetWorkspaceDefaults(Map.of(risk, decision), null)).ok();
                defaults.put(risk, decision);
            }
        }
    }

    private Policy randomPolicy(String id) {
        PolicyMatch match = switch (random.nextInt(6)) {
            case 0 -> null;
            case 1 -> new PolicyMatch(Set.of(pick(List.of(Tool.values()))), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of());
            case 2 -> new PolicyMatch(Set.of(), List.of(pick(List.of("pull_request.*", "*.delete", "page.*", "deploy.run"))),
                    Set.of(), List.of(), List.of(), List.of(), Set.of());
            case 3 -> new PolicyMatch(Set.of(), List.of(), Set.of(pick(List.of(RiskLevel.values()))),
                    List.of(pick(List.of("bot-*", "human-*", "deploy-7"))), List.of(), List.of(), Set.of());
            case 4 -> new PolicyMatch(Set.of(), List.of(), Set.of(), List.of(), List.of("repo"), List.of("pay*"),
                    Set.of(pick(List.of(ActionSource.values()))));
            default -> new PolicyMatch(Set.of(Tool.CODE_HOST, Tool.ISSUE_TRACKER), List.of(), Set.of(RiskLevel.HIGH, RiskLevel.CRITICAL),
                    List.of(), List.of(), List.of(), Set.of());
        };
        return new Policy(id, "policy " + id.substring(0, 6), random.nextInt(5) * 10, random.nextInt(6) > 0,
                pick(List.of(Decision.values())), match, null);
    }

    private <T> T pick(List<T> items) {
        return items.get(random.nextInt(items.size()));
    }
}
