package io.agentgateway.decisioncore.core.action;

import io.agentgateway.classification.ClassifiedRisk;
import io.agentgateway.classification.PayloadExcerpt;
import io.agentgateway.classification.RiskClassifier;
import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.decisioncore.condition.CommandFacts;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CommandHandler;
import io.agentgateway.decisioncore.core.CommandResult;
import io.agentgateway.decisioncore.core.ConnectionVersions;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.core.Validation;
import io.agentgateway.decisioncore.evaluation.ActionDecider;
import io.agentgateway.decisioncore.evaluation.ActionRequest;
import io.agentgateway.decisioncore.evaluation.OutrightBlocks;
import io.agentgateway.decisioncore.evaluation.Verdict;
import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.call.CallDigest;
import io.agentgateway.schemas.call.SealedHeldCall;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Decides one agent action: authenticate the key, classify the risk, apply the decision order, open
 * an approval when the decision says so (and tell its reviewers: {@link ApprovalOpening}), and
 * record the audit entry ({@link ActionEvaluated}).
 * A caller that fails authentication learns nothing and leaves no audit entry: an unknown key must
 * not be able to fill a workspace's audit log. A command naming a connection version that is not the
 * current one is answered {@code stale} (after the key check) and decided on nothing: no audit entry,
 * no approval ({@link ConnectionVersions}). A workspace at its limit of open approvals gets a block
 * instead of a new approval ({@link ApprovalOpening#blockedByLimit}), audited with {@code limitReached}.
 * An allowed MCP {@code tools/list} that names its listed tools is answered with those a tools/call would be blocked
 * for whatever its arguments ({@link OutrightBlocks}, on this same decider), so the gate offers none of them.
 *
 * <p>Reads the configuration and the caller's key entry, nothing else; a require_approval also looks up
 * its new approval's id (to count it once).
 */
final class EvaluateActionHandler implements CommandHandler<EvaluateAction> {
    private static final String TOOL_MESSAGE = "tool must be one of " + ToolProfiles.wireNames();
    private static final String LISTING_ONLY = "listedTools is only for the MCP gate's tools/list (tool "
            + ToolProfiles.listed(profile -> profile.door() == ToolProfile.Door.MCP_GATE, "or") + ")";
    private static final String SEALED_PREFIX = "v1.";
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

    private final DecisionSettings settings;
    private final CommandAuthorizer authorizer;
    private final RiskClassifier classifier = new RiskClassifier();
    private final ActionDecider decider;
    private final OutrightBlocks outrightBlocks;
    private final ApprovalOpening approvals;

    public EvaluateActionHandler(DecisionSettings settings, CommandAuthorizer authorizer) {
        this.settings = settings;
        this.authorizer = authorizer;
        this.approvals = new ApprovalOpening(settings.limits().openApprovals());
        this.decider = new ActionDecider(ConditionEnvironment.of(settings.conditions()));
        this.outrightBlocks = new OutrightBlocks(classifier, decider);
    }

    @Override
    public CommandResult handle(CommandEnvelope envelope, WorkspaceState state, EvaluateAction command) {
        Instant at = envelope.acceptedAt();
        Optional<ApiKeyGrant> key = authorizer.apiKey(state, envelope.actor(), command.requiredScope(), at);
        if (key.isEmpty()) {
            return CommandResult.rejected(state, ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
        }
        // a key bound to an agent acts only as that agent: decided here, in log order with the key's issue
        // both places an agent can be named (the body's agentId, the X-Agent-Id header on the actor) are held to it
        for (String named : new String[] {command.agentId(), envelope.actor().agentId()}) {
            if (named != null && !key.get().mayActAs(named)) {
                return CommandResult.rejected(state, ReplyStatus.FORBIDDEN, AgentBinding.refusal(key.get(), named));
            }
        }
        if (command.tool() == null) {
            return CommandResult.invalid(state, TOOL_MESSAGE);
        }
        if (Validation.blank(command.action())) {
            return CommandResult.invalid(state, "action must be a non-empty string");
        }
        Optional<ClassifiedRisk> risk = classifier.classify(command.tool(), command.action(), command.riskLevel());
        if (risk.isEmpty()) {
            return CommandResult.invalid(state, "riskLevel must be one of low, medium, high, critical");
        }
        if (command.heldCall() != null && !wellFormed(command.heldCall())) {
            return CommandResult.invalid(state, "heldCall must name its kind, be sealed with SecretBox and carry its SHA-256 digest");
        }
        Optional<String> listing = listedToolsProblem(command);
        if (listing.isPresent()) {
            return CommandResult.invalid(state, listing.get());
        }
        // the call would go out with the connection the entry point holds: decide only if that is the current one
        Optional<CommandResult> stale = ConnectionVersions.staleUnless(state, command.tool(), command.connectionVersion());
        if (stale.isPresent()) {
            return stale.get();
        }
        return decide(envelope, state, command, risk.get(), key.get());
    }

    private CommandResult decide(CommandEnvelope envelope, WorkspaceState state, EvaluateAction command, ClassifiedRisk risk,
                                 ApiKeyGrant key) {
        String named = command.agentId() != null ? command.agentId() : envelope.actor().agentId();
        // a key bound to one agent id acts as it when the request names none
        String agentId = named != null ? named : key.agentId();
        AgentIdentity identity = AgentBinding.identity(key, agentId);
        ActionRequest request = new ActionRequest(command.tool(), command.action(), risk.level(), agentId,
                command.resourceType(), command.resourceId(), command.source(), identity, CommandFacts.of(envelope, command));
        Verdict verdict = decider.decide(state, request);
        String limitReached = null;
        if (verdict.decision() == Decision.REQUIRE_APPROVAL && !approvals.hasRoom(state)) {
            verdict = approvals.blockedByLimit(verdict);
            limitReached = DecisionLimits.OPEN_APPROVALS;
        }

        String auditLogId = DerivedIds.auditLogId(envelope.commandId());
        ApprovalOpening.Opened opened = null;
        if (verdict.decision() == Decision.REQUIRE_APPROVAL) {
            SealedHeldCall held = command.heldCall();
            // a held call is what will run: the approval binds that, not the payload the policies saw
            String digest = held != null ? held.digest() : CallDigest.of(command.tool(), command.action(), command.payload());
            opened = approvals.open(envelope, state, new ApprovalOpening.Asked(command.tool(), command.action(),
                    command.source(), agentId, command.agentName(), command.resourceType(), command.resourceId()),
                    risk, verdict, auditLogId, digest, held, command.callView());
        }
        String approvalId = opened == null ? null : opened.approvalId();
        PayloadExcerpt excerpt = PayloadExcerpt.of(command.payload(), settings.payloadExcerptBytes());

        List<DomainEvent> events = new ArrayList<>();
        events.add(new ActionEvaluated(auditLogId, command.tool(), command.action(), risk.level(),
                command.riskLevel(), risk.classification(), command.riskOverriddenByCaller(),
                verdict.decision(), verdict.reason(), verdict.matchedPolicyId(), verdict.matchedPolicyName(),
                approvalId, agentId, command.agentName(), command.resourceType(), command.resourceId(),
                command.requestedBy(), command.source(), excerpt.text(), excerpt.truncated(), excerpt.fullBytes(),
                limitReached, null, identity, verdict.conditionErrorsOrNull()));
        WorkspaceState next = state;
        NotificationRequested reviewersTold = null;
        if (opened != null) {
            events.addAll(opened.events());
            next = opened.state();
            reviewersTold = opened.reviewersTold();
        }

        EvaluationOutcome outcome = new EvaluationOutcome(verdict.decision(), verdict.reason(),
                verdict.matchedPolicyId(), approvalId, auditLogId, risk.level(), risk.classification());
        if (opened != null) {
            // what an MCP task of the held call says of it before the read model has it
            outcome = outcome.withApprovalTimes(opened.createdAt(), opened.expiresAt());
        }
        if (command.listedTools() != null && verdict.decision() == Decision.ALLOW) {
            // an MCP tools/list: which of its tools a tools/call would be blocked for, under this same state
            outcome = outcome.withHiddenTools(outrightBlocks.hidden(state, request, command.listedTools()));
        }
        return new CommandResult(next, ReplyStatus.OK, null, outcome, events,
                reviewersTold == null ? List.of() : List.of(reviewersTold));
    }

    /** Listed tools come only with an MCP listing, bounded: at most 1,000 names, each one a tools/call could name. */
    private static Optional<String> listedToolsProblem(EvaluateAction command) {
        List<String> names = command.listedTools();
        if (names == null) {
            return Optional.empty();
        }
        if (ToolProfiles.of(command.tool()).door() != ToolProfile.Door.MCP_GATE) {
            return Optional.of(LISTING_ONLY);
        }
        if (names.size() > EvaluateAction.MAX_LISTED_TOOLS) {
            return Optional.of("listedTools must name at most " + EvaluateAction.MAX_LISTED_TOOLS + " tools");
        }
        for (String name : names) {
            if (Validation.blank(name) || name.length() > EvaluateAction.MAX_LISTED_TOOL_NAME_CHARS) {
                return Optional.of("listedTools must be non-empty names of at most "
                        + EvaluateAction.MAX_LISTED_TOOL_NAME_CHARS + " characters");
            }
        }
        return Optional.empty();
    }

    private static boolean wellFormed(SealedHeldCall held) {
        return held.kind() != null
                && held.sealed() != null && held.sealed().startsWith(SEALED_PREFIX)
                && held.digest() != null && SHA256_HEX.matcher(held.digest()).matches();
    }
}
