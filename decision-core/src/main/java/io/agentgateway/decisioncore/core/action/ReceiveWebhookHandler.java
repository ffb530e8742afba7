package io.agentgateway.decisioncore.core.action;

import io.agentgateway.decisioncore.condition.CommandFacts;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.ConnectionVersions;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.evaluation.ActionDecider;
import io.agentgateway.decisioncore.evaluation.ActionRequest;
import io.agentgateway.classification.ClassifiedRisk;
import io.agentgateway.classification.PayloadExcerpt;
import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.decisioncore.evaluation.Verdict;
import io.agentgateway.classification.WebhookActions;
import io.agentgateway.classification.WebhookRisk;
import io.agentgateway.classification.WebhookWatch;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.call.CallDigest;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.WebhookReceived;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Records one verified webhook delivery (duplicates never get here: the topology drops them first).
 * A delivery for a workspace that has a connection for the sending tool is evaluated like an agent
 * action (source {@code webhook}, risk by {@link WebhookRisk}) and audited ({@link ActionEvaluated});
 * one keyed by {@link ReceiveWebhook#NO_WORKSPACE}, or for a workspace that no longer has the
 * connection, is recorded unprocessed. A require_approval decision opens an approval request, as for
 * every evaluation (spec section 3): the event has already happened upstream, so there is no call to
 * hold and run, and the approval records a human's verdict on it (approved, like an evaluate-action's).
 * A delivery that names the connection version it was verified with is decided only when that is the
 * current one ({@code stale} with the current connection otherwise, nothing recorded), and only if that
 * connection watches the payload's repository, organization or team ({@link WebhookWatch}).
 */
final class ReceiveWebhookHandler implements CommandHandler<ReceiveWebhook> {
    private static final String NOT_A_SENDER = "tool must be " + ToolProfiles.listed(ToolProfile::sendsWebhooks, "or")
            + " (the tools that send webhooks)";

    private final DecisionSettings settings;
    private final ActionDecider decider;
    private final WebhookRisk risk = new WebhookRisk();
    private final ApprovalOpening approvals;

    public ReceiveWebhookHandler(DecisionSettings settings) {
        this.settings = settings;
        this.approvals = new ApprovalOpening(settings.limits().openApprovals());
        this.decider = new ActionDecider(ConditionEnvironment.of(settings.conditions()));
    }

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, ReceiveWebhook command) {
        if (command.tool() == null || !ToolProfiles.of(command.tool()).sendsWebhooks()) {
            return CommandResult.invalid(state, NOT_A_SENDER);
        }
        if (Validation.blank(command.deliveryId())) {
            return CommandResult.invalid(state, "deliveryId must be a non-empty string");
        }
        if (Validation.blank(command.eventKind())) {
            return CommandResult.invalid(state, "eventKind must be a non-empty string");
        }
        String action = WebhookActions.of(command.eventKind(), command.eventAction());
        PayloadExcerpt excerpt = PayloadExcerpt.ofWebhook(command, settings.payloadExcerptBytes());
        String webhookEventId = DerivedIds.webhookEventId(envelope.commandId());
        if (!ReceiveWebhook.NO_WORKSPACE.equals(envelope.workspaceId())) {
            // verified with the secret of the connection the ingress held: record it only if that is the current one
            Optional<CommandResult> stale = ConnectionVersions.staleUnless(state, command.tool(), command.connectionVersion());
            if (stale.isPresent()) {
                return stale.get();
            }
        }
        if (!watchedBy(envelope, state, command)) {
            return CommandResult.accepted(state, new WebhookReceived(webhookEventId, command.tool(), command.deliveryId(),
                    command.eventKind(), action, false, null, null, excerpt.text(), excerpt.truncated(), excerpt.fullBytes()));
        }
        RiskLevel level = risk.classifyAction(action);
        Verdict verdict = decider.decide(state, new ActionRequest(command.tool(), action, level, command.sender(),
                command.resourceType(), command.resourceId(), ActionSource.WEBHOOK, null, CommandFacts.of(envelope, command)));
        String limitReached = null;
        if (verdict.decision() == Decision.REQUIRE_APPROVAL && !approvals.hasRoom(state)) {
            verdict = approvals.blockedByLimit(verdict);
            limitReached = DecisionLimits.OPEN_APPROVALS;
        }
        String auditLogId = DerivedIds.auditLogId(envelope.commandId());
        ClassifiedRisk classified = new ClassifiedRisk(level, RiskClassification.SERVER_CLASSIFIED);
        ApprovalOpening.Opened opened = verdict.decision() != Decision.REQUIRE_APPROVAL ? null
                : approvals.open(envelope, state, new ApprovalOpening.Asked(command.tool(), action, ActionSource.WEBHOOK,
                        command.sender(), null, command.resourceType(), command.resourceId()), classified, verdict, auditLogId,
                        CallDigest.of(command.tool(), action, command.payload()), null, null);
        String approvalId = opened == null ? null : opened.approvalId();
        ActionEvaluated audit = new ActionEvaluated(auditLogId, command.tool(), action, level, null,
                RiskClassification.SERVER_CLASSIFIED, false, verdict.decision(), verdict.reason(),
                verdict.matchedPolicyId(), verdict.matchedPolicyName(), approvalId, command.sender(), null,
                command.resourceType(), command.resourceId(), null, ActionSource.WEBHOOK, excerpt.text(),
                excerpt.truncated(), excerpt.fullBytes(), limitReached, null, null, verdict.conditionErrorsOrNull());
        WebhookReceived received = new WebhookReceived(webhookEventId, command.tool(), command.deliveryId(),
                command.eventKind(), action, true, verdict.decision(), auditLogId, excerpt.text(), excerpt.truncated(),
                excerpt.fullBytes());
        EvaluationOutcome outcome = new EvaluationOutcome(verdict.decision(), verdict.reason(), verdict.matchedPolicyId(),
                approvalId, auditLogId, level, RiskClassification.SERVER_CLASSIFIED);
        if (opened == null) {
            return new CommandResult(state, ReplyStatus.OK, null, outcome, List.of(audit, received), List.of());
        }
        List<DomainEvent> events = new ArrayList<>(List.of(audit, received));
        events.addAll(opened.events());
        return new CommandResult(opened.state(), ReplyStatus.OK, null, outcome, events, List.of(opened.reviewersTold()));
    }

    /**
     * The ingress matched it from the read model and its copy of the connection; the state, in log order,
     * has the last word: the workspace still has the connection and (for a command that names the version
     * it was verified with) the connection still watches the payload's repository, organization or team.
     */
    private static boolean watchedBy(CommandEnvelope envelope, WorkspaceState state, ReceiveWebhook command) {
        if (ReceiveWebhook.NO_WORKSPACE.equals(envelope.workspaceId()) || !state.exists()) {
            return false;
        }
        Optional<ToolConnection> connection = state.toolConnection(command.tool());
        if (connection.isEmpty()) {
            return false;
        }
        // a writer from before versions matched on the read model alone: kept as it was
        return command.connectionVersion() == null
                || WebhookWatch.watches(command.tool(), connection.get().config(), command.payload());
    }
}
