package io.agentgateway.backtest;

import static io.agentgateway.backtest.RecordedHistory.agents;
import static io.agentgateway.backtest.RecordedHistory.byDefault;
import static io.agentgateway.backtest.RecordedHistory.matched;
import static io.agentgateway.backtest.RecordedHistory.policy;
import static io.agentgateway.backtest.RecordedHistory.tools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.backtest.BacktestReport.Transition;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HistoryReplayTest {
    private static final Instant EPOCH = Instant.EPOCH;
    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");
    private static final String KILL = "Workspace kill switch is enabled";

    private final RecordedHistory history = new RecordedHistory().created();

    @Test
    void theLivePoliciesReproduceEveryRecordedDecisionWhileTheCandidateChangesSome() {
        Policy blockDocs = policy("no docs", 10, Decision.BLOCK, tools(Tool.DOCS));
        history.killSwitch(KillSwitchAction.ENABLE, null, true, Set.of());
        history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.BLOCK, KILL, null);
        history.killSwitch(KillSwitchAction.DISABLE, null, false, Set.of());
        history.killSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CHAT, false, Set.of(Tool.CHAT));
        history.evaluated(Tool.CHAT, "message.send", RiskLevel.LOW, "a1", Decision.BLOCK, "Tool chat is paused", null);
        history.policy(blockDocs);
        EventEnvelope docsBlocked = history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a2", Decision.BLOCK,
                matched(blockDocs), blockDocs);
        history.defaults(RiskLevel.MEDIUM, Decision.REQUIRE_APPROVAL);
        history.killSwitch(KillSwitchAction.RESUME_TOOL, Tool.CHAT, false, Set.of());
        history.evaluated(Tool.CHAT, "message.send", RiskLevel.MEDIUM, "a1", Decision.REQUIRE_APPROVAL,
                byDefault(RiskLevel.MEDIUM, Decision.REQUIRE_APPROVAL), null);
        history.deletePolicy(blockDocs.id());
        history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a2", Decision.ALLOW, byDefault(RiskLevel.LOW, Decision.ALLOW), null);
        history.evaluated(Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH, RiskLevel.LOW, RiskClassification.SERVER_CLASSIFIED,
                "a1", Decision.REQUIRE_APPROVAL, byDefault(RiskLevel.HIGH, Decision.REQUIRE_APPROVAL), null);

        // the candidate: no policies at all
        BacktestReport report = replay(List.of(), EPOCH, FAR);

        assertThat(report.mismatches()).isEmpty();
        assertThat(report.totals()).isEqualTo(new BacktestReport.Totals(6, 1, 5, 0));
        assertThat(report.transitions()).containsExactly(new Transition(Decision.BLOCK, Decision.ALLOW, 1));
        assertThat(report.byTool()).singleElement().satisfies(group -> {
            assertThat(group.tool()).isEqualTo(Tool.DOCS);
            assertThat(group.evaluated()).isEqualTo(3);
            assertThat(group.changed()).isEqualTo(1);
            assertThat(group.exampleAuditIds()).containsExactly(((ActionEvaluated) docsBlocked.event()).auditLogId());
        });
        assertThat(report.byAction()).singleElement().satisfies(group -> {
            assertThat(group.tool()).isEqualTo(Tool.DOCS);
            assertThat(group.action()).isEqualTo("page.read");
        });
        assertThat(report.byAgent()).singleElement().satisfies(group -> {
            assertThat(group.agentId()).isEqualTo("a2");
            assertThat(group.evaluated()).isEqualTo(2);
        });
        assertThat(report.history().versionGaps()).isZero();
        assertThat(report.history().duplicates()).isZero();
        assertThat(report.history().workspaceEvents()).isEqualTo(history.events.size());
    }

    @Test
    void theCandidateKeepsTheKillSwitchPausesAndDefaultsAsTheyWere() {
        history.killSwitch(KillSwitchAction.ENABLE, null, true, Set.of());
        history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.BLOCK, KILL, null);
        history.killSwitch(KillSwitchAction.DISABLE, null, false, Set.of());
        history.killSwitch(KillSwitchAction.PAUSE_TOOL, Tool.DOCS, false, Set.of(Tool.DOCS));
        history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.BLOCK, "Tool docs is paused", null);
        history.killSwitch(KillSwitchAction.RESUME_TOOL, Tool.DOCS, false, Set.of());
        history.defaults(RiskLevel.LOW, Decision.REQUIRE_APPROVAL);
        history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.REQUIRE_APPROVAL,
                byDefault(RiskLevel.LOW, Decision.REQUIRE_APPROVAL), null);
        history.evaluated(Tool.CHAT, "message.send", RiskLevel.LOW, "bot-1", Decision.REQUIRE_APPROVAL,
                byDefault(RiskLevel.LOW, Decision.REQUIRE_APPROVAL), null);

        Policy allowEverything = policy("allow all", 1, Decision.ALLOW, null);
        BacktestReport report = replay(List.of(allowEverything), EPOCH, FAR);

        assertThat(report.totals()).isEqualTo(new BacktestReport.Totals(4, 2, 2, 0));
        assertThat(report.transitions()).containsExactly(new Transition(Decision.REQUIRE_APPROVAL, Decision.ALLOW, 2));
        assertThat(report.byTool()).extracting(BacktestReport.ToolChanges::tool).containsExactly(Tool.CHAT, Tool.DOCS);
        assertThat(report.byAgent()).extracting(BacktestReport.AgentChanges::agentId).containsExactly("a1", "bot-1");
    }

    @Test
    void onlyTheRangeIsReplayedButTheStateIsFoldedFromTheStart() {
        Policy blockBots = policy("no bots", 5, Decision.BLOCK, agents("bot-*"));
        history.policy(blockBots);
        history.evaluated(Tool.CHAT, "message.send", RiskLevel.LOW, "bot-1", Decision.BLOCK, matched(blockBots), blockBots);
        Instant from = history.now();
        history.evaluated(Tool.CHAT, "message.send", RiskLevel.LOW, "bot-2", Decision.BLOCK, matched(blockBots), blockBots);
        history.evaluated(Tool.CHAT, "message.send", RiskLevel.LOW, "human", Decision.ALLOW, byDefault(RiskLevel.LOW, Decision.ALLOW), null);
        Instant to = history.now();
        history.evaluated(Tool.CHAT, "message.send", RiskLevel.LOW, "bot-3", Decision.BLOCK, matched(blockBots), blockBots);

        BacktestReport report = replay(List.of(), from, to);

        assertThat(report.totals()).isEqualTo(new BacktestReport.Totals(2, 1, 1, 0));
        assertThat(report.byAgent()).extracting(BacktestReport.AgentChanges::agentId).containsExactly("bot-2");
    }

    @Test
    void aRecordTheLivePoliciesDoNotReproduceIsListedAsAMismatch() {
        history.killSwitch(KillSwitchAction.ENABLE, null, true, Set.of());
        EventEnvelope wrong = history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.ALLOW,
                byDefault(RiskLevel.LOW, Decision.ALLOW), null);
        EventEnvelope misclassified = history.evaluated(Tool.CODE_HOST, "pull_request.merge", RiskLevel.LOW, RiskLevel.LOW,
                RiskClassification.SERVER_CLASSIFIED, "a1", Decision.BLOCK, KILL, null);

        BacktestReport report = replay(List.of(), EPOCH, FAR);

        assertThat(report.totals().mismatches()).isEqualTo(2);
        assertThat(report.mismatches()).hasSize(2);
        BacktestReport.Mismatch first = report.mismatches().get(0);
        assertThat(first.auditLogId()).isEqualTo(((ActionEvaluated) wrong.event()).auditLogId());
        assertThat(first.differences()).containsExactly("decision", "reason");
        assertThat(first.recorded().decision()).isEqualTo(Decision.ALLOW);
        assertThat(first.replayed().decision()).isEqualTo(Decision.BLOCK);
        assertThat(first.replayed().reason()).isEqualTo(KILL);
        BacktestReport.Mismatch second = report.mismatches().get(1);
        assertThat(second.auditLogId()).isEqualTo(((ActionEvaluated) misclassified.event()).auditLogId());
        assertThat(second.differences()).containsExactly("riskLevel");
        assertThat(second.replayed().riskLevel()).isEqualTo(RiskLevel.HIGH);
        assertThat(BacktestTable.render(report)).contains("REPRODUCTION MISMATCHES: 2");
    }

    @Test
    void anEvaluationTheOpenApprovalsLimitBlockedReproducesAndStaysBlockedUnderTheCandidate() {
        Policy hold = policy("hold docs", 10, Decision.REQUIRE_APPROVAL, tools(Tool.DOCS));
        history.policy(hold);
        String reason = "Workspace holds its limit of 10 open approval requests: blocked instead of held for approval";
        history.limited(Tool.DOCS, "page.publish", RiskLevel.LOW, "a1", reason, hold);

        BacktestReport unchanged = replay(List.of(hold), EPOCH, FAR);
        assertThat(unchanged.mismatches()).as("the recorded block is what the limit made of the policy's decision").isEmpty();
        assertThat(unchanged.totals().changed()).isZero();

        BacktestReport allowing = replay(List.of(), EPOCH, FAR);
        assertThat(allowing.totals().changed()).as("a candidate that needs no approval lets it through").isEqualTo(1);
        assertThat(allowing.transitions()).containsExactly(new Transition(Decision.BLOCK, Decision.ALLOW, 1));
    }

    @Test
    void reEmittedEventsAreSkippedAndDoNotTurnBackTheState() {
        Policy blockDocs = policy("no docs", 10, Decision.BLOCK, tools(Tool.DOCS));
        history.policy(blockDocs);
        EventEnvelope upserted = history.events.get(history.events.size() - 1);
        EventEnvelope evaluated = history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.BLOCK,
                matched(blockDocs), blockDocs);
        history.reEmit(evaluated);
        history.deletePolicy(blockDocs.id());
        history.reEmit(upserted);
        history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.ALLOW, byDefault(RiskLevel.LOW, Decision.ALLOW), null);

        BacktestReport report = replay(List.of(), EPOCH, FAR);

        assertThat(report.totals()).isEqualTo(new BacktestReport.Totals(2, 1, 1, 0));
        assertThat(report.history().duplicates()).isEqualTo(2);
        assertThat(report.history().versionGaps()).isZero();
    }

    @Test
    void aStateChangeTheLogDoesNotShowIsCountedAsAVersionGap() {
        history.unseenChange();
        history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.ALLOW, byDefault(RiskLevel.LOW, Decision.ALLOW), null);

        BacktestReport report = replay(List.of(), EPOCH, FAR);

        assertThat(report.history().versionGaps()).isEqualTo(1);
        assertThat(report.totals().mismatches()).isZero();
    }

    @Test
    void anEvaluationMissingWhatAReplayNeedsIsCountedAndSkipped() {
        history.evaluated(null, "page.read", RiskLevel.LOW, "a1", Decision.ALLOW, byDefault(RiskLevel.LOW, Decision.ALLOW), null);
        history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a1", Decision.ALLOW, byDefault(RiskLevel.LOW, Decision.ALLOW), null);

        HistoryReplay replay = new HistoryReplay(new BacktestRequest(history.workspaceId, List.of(), EPOCH, FAR), 5);
        history.events.forEach(replay::accept);
        replay.accept(null);
        BacktestReport report = replay.report(LogSpan.inMemory(history.events.size()));

        assertThat(report.totals().evaluated()).isEqualTo(1);
        assertThat(report.history().undecodable()).isEqualTo(2);
    }

    @Test
    void groupsKeepAtMostTheExampleLimitAndListTheMostChangesFirst() {
        Policy allowAll = policy("allow all", 1, Decision.ALLOW, null);
        history.policy(allowAll);
        for (int i = 0; i < 5; i++) {
            history.evaluated(Tool.CHAT, "message.send", RiskLevel.LOW, "a" + (i % 2), Decision.ALLOW, matched(allowAll), allowAll);
        }
        history.evaluated(Tool.DOCS, "page.read", RiskLevel.LOW, "a0", Decision.ALLOW, matched(allowAll), allowAll);

        BacktestReport report = replay(List.of(policy("block all", 1, Decision.BLOCK, null)), EPOCH, FAR);

        assertThat(report.totals().changed()).isEqualTo(6);
        assertThat(report.byTool()).extracting(BacktestReport.ToolChanges::tool).containsExactly(Tool.CHAT, Tool.DOCS);
        assertThat(report.byTool().get(0).exampleAuditIds()).hasSize(2);
        assertThat(report.byAgent()).extracting(BacktestReport.AgentChanges::agentId, BacktestReport.AgentChanges::changed)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a0", 4L), org.assertj.core.groups.Tuple.tuple("a1", 2L));
        String table = BacktestTable.render(report);
        assertThat(table).contains("Evaluated 6   would change 6   unchanged 0   reproduction mismatches 0")
                .contains("allow  block      6")
                .contains("By agent")
                .doesNotContain("REPRODUCTION MISMATCHES");
    }

    @Test
    void aRequestNeedsAnOrderedRangeAndDistinctCandidateIds() {
        Policy p = policy("p", 1, Decision.ALLOW, null);
        assertThatThrownBy(() -> new BacktestRequest("ws", List.of(), FAR, EPOCH))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("from must be before to");
        assertThatThrownBy(() -> new BacktestRequest("ws", List.of(), FAR, FAR))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("from must be before to");
        assertThatThrownBy(() -> new BacktestRequest("ws", List.of(p, p), EPOCH, FAR))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("appears twice");
    }

    private BacktestReport replay(List<Policy> candidate, Instant from, Instant to) {
        HistoryReplay replay = new HistoryReplay(new BacktestRequest(history.workspaceId, candidate, from, to), 2);
        history.events.forEach(replay::accept);
        return replay.report(LogSpan.inMemory(history.events.size()));
    }
}
