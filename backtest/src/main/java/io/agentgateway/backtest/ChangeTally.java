package io.agentgateway.backtest;

import io.agentgateway.backtest.BacktestReport.ActionChanges;
import io.agentgateway.backtest.BacktestReport.AgentChanges;
import io.agentgateway.backtest.BacktestReport.Mismatch;
import io.agentgateway.backtest.BacktestReport.Outcome;
import io.agentgateway.backtest.BacktestReport.ToolChanges;
import io.agentgateway.backtest.BacktestReport.Totals;
import io.agentgateway.classification.ClassifiedRisk;
import io.agentgateway.decisioncore.evaluation.Verdict;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.EventEnvelope;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Adds up the replayed evaluations: totals, transitions, the groups by tool, action and agent, and the
 * reproduction mismatches. Groups are kept for every key seen (their evaluated counts are needed) but
 * reported only when something in them changed.
 */
final class ChangeTally {
    private record ActionKey(Tool tool, String action) {}

    private final int exampleLimit;
    private final int mismatchLimit;
    private final TransitionCounts transitions = new TransitionCounts();
    private final Map<Tool, GroupTally> byTool = new EnumMap<>(Tool.class);
    private final Map<ActionKey, GroupTally> byAction = new HashMap<>();
    private final Map<String, GroupTally> byAgent = new HashMap<>();
    private final List<Mismatch> mismatches = new ArrayList<>();
    private long evaluated;
    private long changed;
    private long mismatchCount;

    ChangeTally(int exampleLimit, int mismatchLimit) {
        this.exampleLimit = exampleLimit;
        this.mismatchLimit = mismatchLimit;
    }

    void add(EventEnvelope envelope, ActionEvaluated recorded, Verdict replayed, ClassifiedRisk risk, Verdict candidate) {
        evaluated++;
        List<String> differences = Reproduction.differences(recorded, replayed, risk);
        if (!differences.isEmpty()) {
            mismatchCount++;
            if (mismatches.size() < mismatchLimit) {
                mismatches.add(mismatch(envelope, recorded, replayed, risk, differences));
            }
        }
        GroupTally tool = byTool.computeIfAbsent(recorded.tool(), k -> new GroupTally());
        GroupTally action = byAction.computeIfAbsent(new ActionKey(recorded.tool(), recorded.action()), k -> new GroupTally());
        GroupTally agent = byAgent.computeIfAbsent(recorded.agentId(), k -> new GroupTally());
        tool.evaluated();
        action.evaluated();
        agent.evaluated();
        if (candidate.decision() != recorded.decision()) {
            changed++;
            transitions.add(recorded.decision(), candidate.decision());
            tool.changed(recorded.decision(), candidate.decision(), recorded.auditLogId(), exampleLimit);
            action.changed(recorded.decision(), candidate.decision(), recorded.auditLogId(), exampleLimit);
            agent.changed(recorded.decision(), candidate.decision(), recorded.auditLogId(), exampleLimit);
        }
    }

    Totals totals() {
        return new Totals(evaluated, changed, evaluated - changed, mismatchCount);
    }

    List<BacktestReport.Transition> transitions() {
        return transitions.toList();
    }

    List<ToolChanges> byTool() {
        return groups(byTool, Tool::wire,
                (key, g) -> new ToolChanges(key, g.evaluated, g.changed, g.transitions.toList(), List.copyOf(g.examples)));
    }

    List<ActionChanges> byAction() {
        return groups(byAction, key -> key.tool().wire() + " " + key.action(),
                (key, g) -> new ActionChanges(key.tool(), key.action(), g.evaluated, g.changed, g.transitions.toList(),
                        List.copyOf(g.examples)));
    }

    List<AgentChanges> byAgent() {
        return groups(byAgent, key -> Objects.toString(key, ""),
                (key, g) -> new AgentChanges(key, g.evaluated, g.changed, g.transitions.toList(), List.copyOf(g.examples)));
    }

    List<Mismatch> mismatches() {
        return List.copyOf(mismatches);
    }

    /** Groups with changes, most changes first, then by name: the same history always yields the same order. */
    private static <K, R> List<R> groups(Map<K, GroupTally> tallies, Function<K, String> name,
                                         BiFunction<K, GroupTally, R> view) {
        Comparator<Map.Entry<K, GroupTally>> order = Comparator
                .comparingLong((Map.Entry<K, GroupTally> e) -> e.getValue().changed).reversed()
                .thenComparing(e -> name.apply(e.getKey()));
        return tallies.entrySet().stream()
                .filter(e -> e.getValue().changed > 0)
                .sorted(order)
                .map(e -> view.apply(e.getKey(), e.getValue()))
                .toList();
    }

    private static Mismatch mismatch(EventEnvelope envelope, ActionEvaluated recorded, Verdict replayed, ClassifiedRisk risk,
                                     List<String> differences) {
        return new Mismatch(recorded.auditLogId(), envelope.eventId(), envelope.occurredAt(), envelope.workspaceVersion(),
                envelope.policySetVersion(), recorded.tool(), recorded.action(), recorded.agentId(), List.copyOf(differences),
                new Outcome(recorded.decision(), recorded.reason(), recorded.matchedPolicyId(), recorded.riskLevel(),
                        recorded.riskClassification()),
                new Outcome(replayed.decision(), replayed.reason(), replayed.matchedPolicyId(),
                        risk == null ? null : risk.level(), risk == null ? null : risk.classification()));
    }
}
