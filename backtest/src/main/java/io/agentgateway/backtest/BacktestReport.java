package io.agentgateway.backtest;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.time.Instant;
import java.util.List;

/**
 * What a back-test found: every recorded evaluation in {@code [from, to)} decided again under the
 * policies that were live (which must reproduce the recorded decision: any difference is listed in
 * {@link #mismatches} and is a bug) and under the candidate policies (with the kill switch, paused
 * tools and defaults as they were), and how many decisions the candidate would change.
 *
 * @param candidatePolicies  how many policies the candidate set holds
 * @param transitions        changed decisions by (recorded → candidate), most frequent first
 * @param byTool             tools with at least one changed decision, most changes first
 * @param byAction           (tool, action) pairs with at least one changed decision
 * @param byAgent            agents with at least one changed decision ({@code agentId} null: calls without one)
 * @param mismatches         the first reproduction mismatches (their number is {@code totals.mismatches})
 * @param history            what was read of the log
 */
public record BacktestReport(
        String workspaceId,
        Instant from,
        Instant to,
        int candidatePolicies,
        Totals totals,
        List<Transition> transitions,
        List<ToolChanges> byTool,
        List<ActionChanges> byAction,
        List<AgentChanges> byAgent,
        List<Mismatch> mismatches,
        History history) {

    /**
     * @param evaluated   recorded evaluations in the range
     * @param changed     of those, how many the candidate decides differently from the record
     * @param unchanged   {@code evaluated - changed}
     * @param mismatches  how many the live policies did not reproduce exactly (must be 0)
     */
    public record Totals(long evaluated, long changed, long unchanged, long mismatches) {}

    public record Transition(Decision from, Decision to, long count) {}

    /** @param exampleAuditIds  audit log ids of the first changed decisions, in log order */
    public record ToolChanges(Tool tool, long evaluated, long changed, List<Transition> transitions,
                              List<String> exampleAuditIds) {}

    public record ActionChanges(Tool tool, String action, long evaluated, long changed, List<Transition> transitions,
                                List<String> exampleAuditIds) {}

    public record AgentChanges(String agentId, long evaluated, long changed, List<Transition> transitions,
                               List<String> exampleAuditIds) {}

    /**
     * A recorded evaluation that the live policies did not reproduce.
     *
     * @param workspaceVersion  the envelope's version (the state after the evaluation)
     * @param differences       the fields that differ: decision, reason, matchedPolicyId, riskLevel,
     *                          riskClassification
     */
    public record Mismatch(String auditLogId, String eventId, Instant occurredAt, long workspaceVersion,
                           long policySetVersion, Tool tool, String action, String agentId, List<String> differences,
                           Outcome recorded, Outcome replayed) {}

    public record Outcome(Decision decision, String reason, String matchedPolicyId, RiskLevel riskLevel,
                          RiskClassification riskClassification) {}

    /**
     * @param partition         the workspace's partition of {@code topic}, read from its start
     * @param startOffset       the first offset on the partition (above 0 when older records were deleted:
     *                          the fold then misses their changes)
     * @param endOffset         the last stable offset when the read began: later records are not read
     * @param recordsRead       records of every workspace on the partition
     * @param workspaceEvents   events of this workspace that were replayed
     * @param undecodable       records of this workspace that could not be read or replayed (skipped)
     * @param duplicates        re-emitted events (same event id, or a workspace version already passed)
     * @param versionGaps       events whose workspace version does not follow the one before: state
     *                          changes the log does not show
     */
    /**
     * @param commandsRead   records of the commands topic read for the whole inputs of the evaluations (policy
     *                       conditions read what the command carried, not the audit excerpt)
     * @param inputsMissing  evaluations in the range whose command was not found (history deleted from the commands
     *                       topic): a condition reading the arguments fails closed for them
     */
    public record History(String topic, int partition, long startOffset, long endOffset, long recordsRead,
                          long workspaceEvents, long undecodable, long duplicates, long versionGaps, long commandsRead,
                          long inputsMissing) {

        public History(String topic, int partition, long startOffset, long endOffset, long recordsRead, long workspaceEvents,
                       long undecodable, long duplicates, long versionGaps) {
            this(topic, partition, startOffset, endOffset, recordsRead, workspaceEvents, undecodable, duplicates, versionGaps,
                    0, 0);
        }
    }
}
