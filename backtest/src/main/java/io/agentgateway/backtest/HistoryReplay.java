package io.agentgateway.backtest;

import io.agentgateway.decisioncore.condition.ActionFacts;
import io.agentgateway.decisioncore.condition.CommandFacts;
import io.agentgateway.decisioncore.condition.ConditionLimits;
import io.agentgateway.decisioncore.core.DecisionCore;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.evaluation.ActionRequest;
import io.agentgateway.classification.ClassifiedRisk;
import io.agentgateway.classification.RiskClassifier;
import io.agentgateway.decisioncore.evaluation.Verdict;
import io.agentgateway.classification.WebhookRisk;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Replays one workspace's events, fed in log order from its very first event: the decision inputs are
 * folded from every event, and each recorded evaluation inside the request's range is decided again by
 * the decision core's own rule ({@link DecisionCore#verdict}) and {@link RiskClassifier}, once with the state as it
 * was (which must reproduce the record) and once with the candidate policies in place of the live ones.
 *
 * <p>Re-emitted events are skipped: the decision stream re-emits a redelivered command's stored
 * outcome with its original ids and versions, so an event whose workspace version is below one already
 * seen, or whose id was already seen at the current version, is a copy. Versions also show holes: an
 * evaluation must have been decided at the version the events before it reached.
 *
 * <p>Not thread-safe; one instance per back-test.
 */
public final class HistoryReplay {
    /** Examples of mismatches kept in the report; the count covers them all. */
    public static final int MISMATCH_EXAMPLES = 20;

    private final BacktestRequest request;
    // the verdict of an evaluation depends on the state and the condition limits, not on the other settings
    private final DecisionCore core;
    /** The facts of the evaluations in range, from their commands, by {@link #inputKey}. */
    private final Map<String, ActionFacts> inputs = new HashMap<>();
    private long inputsMissing;
    private final RiskClassifier classifier = new RiskClassifier();
    private final WebhookRisk webhookRisk = new WebhookRisk();
    private final DecisionInputsFold fold = new DecisionInputsFold();
    private final ChangeTally tally;
    private final Set<String> eventIdsAtLatestVersion = new HashSet<>();
    private WorkspaceState live = WorkspaceState.absent(DecisionSettings.DEFAULT_APPROVAL_TTL);
    private WorkspaceState underCandidate;
    private long latestVersion;
    private long replayed;
    private long unreplayable;
    private long duplicates;
    private long versionGaps;

    /** @param exampleLimit  audit ids kept per group */
    public HistoryReplay(BacktestRequest request, int exampleLimit) {
        this(request, exampleLimit, ConditionLimits.defaults());
    }

    /**
     * @param exampleLimit  audit ids kept per group
     * @param conditions    the decision stream's condition limits (a replay must decide as the stream did)
     */
    public HistoryReplay(BacktestRequest request, int exampleLimit, ConditionLimits conditions) {
        this.request = request;
        this.tally = new ChangeTally(exampleLimit, MISMATCH_EXAMPLES);
        this.core = new DecisionCore(DecisionSettings.defaults().withConditions(conditions));
    }

    /**
     * A command of the workspace, before its events are replayed: an evaluation's or webhook's whole inputs (what
     * its policy conditions read) are kept for the evaluation it was decided into, for those in range.
     */
    public void acceptCommand(CommandEnvelope envelope) {
        if (envelope == null || !request.workspaceId().equals(envelope.workspaceId()) || !request.covers(envelope.acceptedAt())) {
            return;
        }
        if (envelope.command() instanceof EvaluateAction evaluate) {
            inputs.put(inputKey(envelope.commandId(), envelope.acceptedAt()), CommandFacts.of(envelope, evaluate));
        } else if (envelope.command() instanceof ReceiveWebhook webhook) {
            inputs.put(inputKey(envelope.commandId(), envelope.acceptedAt()), CommandFacts.of(envelope, webhook));
        }
    }

    /** The next event of the workspace in log order. */
    public void accept(EventEnvelope envelope) {
        if (envelope == null || envelope.event() == null || !request.workspaceId().equals(envelope.workspaceId())) {
            unreplayable++;
            return;
        }
        if (!firstSighting(envelope)) {
            duplicates++;
            return;
        }
        try {
            replay(envelope, envelope.event());
            replayed++;
        } catch (RuntimeException malformed) {
            // an event missing what a replay needs: counted, never guessed at
            unreplayable++;
        }
    }

    public BacktestReport report(LogSpan span) {
        return report(span, 0);
    }

    /** @param commandsRead records of the commands topic read for the inputs */
    public BacktestReport report(LogSpan span, long commandsRead) {
        return new BacktestReport(request.workspaceId(), request.from(), request.to(), request.candidate().size(),
                tally.totals(), tally.transitions(), tally.byTool(), tally.byAction(), tally.byAgent(), tally.mismatches(),
                new BacktestReport.History(span.topic(), span.partition(), span.startOffset(), span.endOffset(),
                        span.recordsRead(), replayed, span.undecodable() + unreplayable, duplicates, versionGaps, commandsRead,
                        inputsMissing));
    }

    /**
     * How an evaluation is found from its event: the command id and acceptedAt (the event's occurredAt). A retry of
     * an undelivered evaluation is decided under {@code <command id>/retry/<acceptedAt>} but is in the log under its
     * own command id, with that acceptedAt.
     */
    static String inputKey(String commandId, Instant at) {
        String id = commandId == null ? "" : commandId;
        int retry = id.indexOf(RETRY_MARK);
        return (retry < 0 ? id : id.substring(0, retry)) + "@" + at;
    }

    private static final String RETRY_MARK = "/retry/";

    private boolean firstSighting(EventEnvelope envelope) {
        long version = envelope.workspaceVersion();
        if (version < latestVersion) {
            return false;
        }
        if (version == latestVersion && eventIdsAtLatestVersion.contains(envelope.eventId())) {
            return false;
        }
        if (!followsLatestVersion(envelope)) {
            versionGaps++;
        }
        if (version > latestVersion) {
            latestVersion = version;
            eventIdsAtLatestVersion.clear();
        }
        eventIdsAtLatestVersion.add(envelope.eventId());
        return true;
    }

    /**
     * An evaluation changes the state only by opening an approval, so it was decided at its version
     * minus one when it opened one, else at its version; any other command moves the version by at most one.
     */
    private boolean followsLatestVersion(EventEnvelope envelope) {
        long version = envelope.workspaceVersion();
        if (envelope.event() instanceof ActionEvaluated evaluated) {
            long decidedAt = evaluated.approvalRequestId() == null ? version : version - 1;
            return decidedAt == latestVersion;
        }
        return version <= latestVersion + 1;
    }

    private void replay(EventEnvelope envelope, DomainEvent event) {
        if (event instanceof ActionEvaluated evaluated) {
            if (request.covers(envelope.occurredAt())) {
                evaluate(envelope, evaluated);
            }
        } else if (DecisionInputsFold.changesDecisionInputs(event)) {
            live = fold.apply(live, event);
            underCandidate = null;
        }
    }

    private void evaluate(EventEnvelope envelope, ActionEvaluated recorded) {
        if (recorded.tool() == null || recorded.action() == null || recorded.riskLevel() == null || recorded.decision() == null) {
            throw new IllegalArgumentException("action_evaluated without tool, action, riskLevel or decision");
        }
        ActionFacts facts = inputs.get(inputKey(envelope.commandId(), envelope.occurredAt()));
        if (facts == null) {
            inputsMissing++;
            facts = new ActionFacts(null, "args were not found: the command is not in the commands log", null, null, null,
                    null, null, envelope.occurredAt());
        }
        ActionRequest action = new ActionRequest(recorded.tool(), recorded.action(), recorded.riskLevel(),
                recorded.agentId(), recorded.resourceType(), recorded.resourceId(), recorded.source(),
                recorded.agentIdentity(), facts);
        Verdict asRecorded = underLimit(recorded, core.verdict(live, action));
        // a received webhook's risk comes from its action alone: its sender supplies none (an evaluate-action
        // that names source webhook does supply one, and is classified as it was)
        ClassifiedRisk risk = recorded.source() == ActionSource.WEBHOOK && recorded.suppliedRiskLevel() == null
                ? new ClassifiedRisk(webhookRisk.classifyAction(recorded.action()), RiskClassification.SERVER_CLASSIFIED)
                : classifier.classify(recorded.tool(), recorded.action(), recorded.suppliedRiskLevel()).orElse(null);
        Verdict underCandidatePolicies = underLimit(recorded, core.verdict(candidateState(), action));
        tally.add(envelope, recorded, asRecorded, risk, underCandidatePolicies);
    }

    /**
     * An evaluation a workspace limit turned into a block ({@code limitReached}) was decided require_approval
     * by its policies; whether the workspace was at its limit is not a decision input the log carries, so the
     * limit is taken as it was recorded: a replayed require_approval is that same block, under the live and
     * under the candidate policies alike.
     */
    private static Verdict underLimit(ActionEvaluated recorded, Verdict replayed) {
        if (recorded.limitReached() == null || replayed.decision() != Decision.REQUIRE_APPROVAL) {
            return replayed;
        }
        return new Verdict(Decision.BLOCK, recorded.reason(), replayed.matchedPolicy(), replayed.conditionErrors());
    }

    /** The live state with the candidate policies instead of the live ones, rebuilt only after a change. */
    private WorkspaceState candidateState() {
        if (underCandidate == null) {
            underCandidate = live.withPolicySet(request.candidate());
        }
        return underCandidate;
    }
}
