package io.agentgateway.adminapi.policies;

import io.agentgateway.adminapi.shared.AdminRefusals;
import io.agentgateway.backtest.RecordedCommands;
import io.agentgateway.classification.ClassifiedRisk;
import io.agentgateway.classification.RiskClassifier;
import io.agentgateway.decisioncore.condition.ActionFacts;
import io.agentgateway.decisioncore.condition.CommandFacts;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.core.DecisionCore;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.evaluation.ActionRequest;
import io.agentgateway.decisioncore.evaluation.Explanation;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.ReceiveWebhook;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Testing a draft policy set, for every client of it ({@code POST /admin/v1/workspaces/{workspaceId}/policy-tests},
 * the console's test box): decides one action under a draft
 * policy set with the decision core's own rule and answers which policy matches and what each condition evaluates to
 * (docs/policies.md, "Testing a policy"). The action is a sample given in the body, or a recorded evaluation named by
 * its {@code auditLogId}, whose whole inputs are read from the commands topic (the audit row keeps only an excerpt).
 * The workspace's defaults and time zone are its own (read model); the kill switch and paused tools are not applied:
 * the answer is about the policies.
 */
@Service
public class PolicyTests {
    static final String NO_EVALUATION = "No evaluation with this auditLogId in the workspace";

    private final ConditionEnvironment conditions;
    private final DefaultsRepository workspaces;
    private final RecordedEvaluationRepository recorded;
    private final RecordedCommands commands;
    private final DecisionCore core;
    private final RiskClassifier classifier = new RiskClassifier();
    private final Clock clock = Clock.systemUTC();

    PolicyTests(ConditionEnvironment conditions, DefaultsRepository workspaces, RecordedEvaluationRepository recorded,
                RecordedCommands commands) {
        this.conditions = conditions;
        this.workspaces = workspaces;
        this.recorded = recorded;
        this.commands = commands;
        this.core = new DecisionCore(DecisionSettings.defaults().withConditions(conditions.limits()));
    }

    /**
     * {@code {policies, action | auditLogId}} as {@code POST .../policy-tests} takes it: the answer's JSON (decision,
     * reason, matched policy, each policy's check and condition value). Reads the commands topic for a recorded action:
     * 503/504 when it cannot.
     */
    public Mono<ObjectNode> test(UUID workspaceId, ObjectNode body, String correlationId) {
        return AdminRefusals.eventLogRead(Mono.fromCallable(() -> PolicyTestBodies.parse(body, conditions, clock.instant()))
                .flatMap(test -> Blocking.call(() -> run(workspaceId, test))), correlationId, "policy test");
    }

    private ObjectNode run(UUID workspaceId, PolicyTestBodies.PolicyTest test) {
        DefaultsRepository.StoredDefaults defaults = workspaces.defaults(workspaceId)
                .orElseThrow(AdminRefusals::workspaceNotFound);
        WorkspaceState state = WorkspaceState.absent(DecisionSettings.DEFAULT_APPROVAL_TTL)
                .withDefaults(decisions(defaults.decisions()), null)
                .withTimeZone(defaults.timeZone())
                .withPolicySet(test.policies());
        String inputs;
        ActionRequest action;
        if (test.sample() != null) {
            PolicyTestBodies.Sample sample = test.sample();
            ClassifiedRisk risk = classifier.classify(sample.tool(), sample.action(), sample.suppliedRisk())
                    .orElseThrow(() -> ApiException.badRequest("action.riskLevel must be one of: low, medium, high, critical"));
            action = new ActionRequest(sample.tool(), sample.action(), risk.level(), sample.agentId(), sample.resourceType(),
                    sample.resourceId(), sample.source(), sample.identity(), sample.facts());
            inputs = "sample";
        } else {
            RecordedEvaluationRepository.RecordedEvaluation evaluation = recorded.find(workspaceId, test.auditLogId())
                    .orElseThrow(() -> ApiException.notFound(NO_EVALUATION));
            Optional<CommandEnvelope> command = commands.find(workspaceId.toString(), evaluation.commandId(), evaluation.occurredAt());
            ActionFacts facts = command.map(PolicyTests::factsOf).orElse(null);
            inputs = facts == null ? "not_found" : "log";
            if (facts == null) {
                facts = new ActionFacts(null, "args were not found: the command is not in the commands log", null, null, null,
                        evaluation.requestedBy(), evaluation.agentName(), evaluation.occurredAt());
            }
            action = new ActionRequest(Tool.parse(evaluation.tool()).orElseThrow(), evaluation.action(),
                    RiskLevel.parse(evaluation.riskLevel()).orElseThrow(), evaluation.agentId(), evaluation.resourceType(),
                    evaluation.resourceId(), ActionSource.parse(evaluation.source()).orElse(null),
                    AgentIdentity.parse(evaluation.agentIdentity()).orElse(null), facts);
        }
        return answer(core.explain(state, action), action, inputs);
    }

    private static ActionFacts factsOf(CommandEnvelope envelope) {
        if (envelope.command() instanceof EvaluateAction evaluate) {
            return CommandFacts.of(envelope, evaluate);
        }
        if (envelope.command() instanceof ReceiveWebhook webhook) {
            return CommandFacts.of(envelope, webhook);
        }
        return null;
    }

    private static ObjectNode answer(Explanation explanation, ActionRequest action, String inputs) {
        ObjectNode body = IngressJson.RESPONSES.createObjectNode();
        body.put("ok", true);
        body.put("decision", explanation.verdict().decision().wire());
        body.put("reason", explanation.verdict().reason());
        body.put("matchedPolicyId", explanation.verdict().matchedPolicyId());
        body.put("riskLevel", action.riskLevel().wire());
        body.put("inputs", inputs);
        if (!explanation.verdict().conditionErrors().isEmpty()) {
            body.set("conditionErrors", IngressJson.RESPONSES.valueToTree(explanation.verdict().conditionErrors()));
        }
        ArrayNode policies = body.putArray("policies");
        for (Explanation.PolicyCheck check : explanation.policies()) {
            ObjectNode policy = policies.addObject();
            policy.put("id", check.policy().id());
            policy.put("name", check.policy().name());
            policy.put("priority", check.policy().priority());
            policy.put("decision", check.policy().decision().wire());
            policy.put("listsMatch", check.listsMatch());
            if (check.policy().hasCondition()) {
                policy.put("condition", check.policy().condition());
                if (check.condition().failed()) {
                    policy.putNull("conditionValue");
                    policy.put("conditionError", check.condition().error());
                } else {
                    policy.put("conditionValue", check.condition().value());
                }
            }
            policy.put("matched", check.decided());
        }
        return body;
    }

    /** The stored defaults (keyed by risk level); levels missing keep the built-in ones. */
    private static Map<RiskLevel, Decision> decisions(JsonNode stored) {
        Map<RiskLevel, Decision> decisions = new EnumMap<>(RiskLevel.class);
        if (stored != null && stored.isObject()) {
            for (Map.Entry<String, JsonNode> entry : stored.properties()) {
                Optional<RiskLevel> level = RiskLevel.parse(entry.getKey());
                Optional<Decision> decision = entry.getValue().isString() ? Decision.parse(entry.getValue().stringValue())
                        : Optional.empty();
                if (level.isPresent() && decision.isPresent()) {
                    decisions.put(level.get(), decision.get());
                }
            }
        }
        return decisions;
    }
}
