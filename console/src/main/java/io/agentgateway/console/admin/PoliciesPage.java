package io.agentgateway.console.admin;

import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Membership;
import io.agentgateway.console.web.Reader;
import io.agentgateway.adminapi.backtest.Backtests;
import io.agentgateway.adminapi.policies.PolicyAdmin;
import io.agentgateway.adminapi.policies.PolicyTests;
import io.agentgateway.adminapi.policies.WorkspaceDefaults;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.AgentIdentity;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The policies of a workspace in evaluation order, the defaults per risk level and the approval TTL, and the policy
 * editor with "what it would have done": the back-test of the draft over the last days of recorded history and the
 * test box (one sample or recorded action decided under the draft), before it is saved. Every check is the admin
 * API's ({@link PolicyAdmin}, {@link Backtests}, {@link PolicyTests}, {@link WorkspaceDefaults}), every change one
 * command through the decision stream. Readers who do not administer the workspace see the list, read-only.
 */
@Component
public class PoliciesPage {
    private final AdminPages admin;
    private final PolicyAdmin policies;
    private final WorkspaceDefaults defaults;
    private final Backtests backtests;
    private final PolicyTests tests;

    PoliciesPage(AdminPages admin, PolicyAdmin policies, WorkspaceDefaults defaults, Backtests backtests, PolicyTests tests) {
        this.admin = admin;
        this.policies = policies;
        this.defaults = defaults;
        this.backtests = backtests;
        this.tests = tests;
    }

    /** GET /policies */
    public Mono<ServerResponse> first(ServerRequest request) {
        return admin.first(request, "policies", false);
    }

    /** GET /workspaces/{workspaceId}/policies */
    public Mono<ServerResponse> page(ServerRequest request) {
        return admin.requests.reader(request)
                .flatMap(reader -> listModel(reader, AdminPages.member(reader, request), request, FormErrors.none(), null))
                .flatMap(model -> admin.pages.page("policies", model))
                .onErrorResume(e -> admin.requests.failure(request, e));
    }

    private Mono<Map<String, Object>> listModel(Reader reader, Membership member, ServerRequest request, FormErrors errors,
                                                Map<String, String> typedDefaults) {
        UUID workspaceId = member.workspaceId();
        return Mono.zip(admin.model(reader, member, "policies", "policy", "defaults"), policies.list(workspaceId),
                        defaults.view(workspaceId).onErrorMap(ConsoleException::notFoundOf))
                .map(loaded -> listModel(loaded.getT1(), loaded.getT2(), loaded.getT3(), request, errors, typedDefaults));
    }

    private static Map<String, Object> listModel(Map<String, Object> model, List<PolicyAdmin.PolicyView> list,
                                                 WorkspaceDefaults.View view, ServerRequest request, FormErrors errors,
                                                 Map<String, String> typedDefaults) {
        model.put("policies", list.stream().map(PolicyRow::of).toList());
        model.put("defaults", view);
        model.put("typedDefaults", typedDefaults != null ? typedDefaults : typed(view));
        model.put("errors", errors);
        model.put("riskLevels", Arrays.stream(RiskLevel.values()).map(RiskLevel::wire).toList());
        model.put("decisions", Arrays.stream(Decision.values()).map(Decision::wire).toList());
        String saved = request.queryParam("saved").orElse(null);
        model.put("saved", saved == null ? null : list.stream().filter(p -> p.id().equals(saved)).map(PolicyAdmin.PolicyView::name)
                .findFirst().orElse(null));
        model.put("notice", request.queryParam("done").map(PoliciesPage::notice).orElse(null));
        return model;
    }

    private static String notice(String done) {
        return switch (done) {
            case "deleted" -> "The policy was deleted: the decision stream applies it to every later action.";
            case "moved" -> "The order was changed: the decision stream applies it to every later action.";
            case "defaults" -> "The defaults were saved: the decision stream applies them to every later action.";
            default -> null;
        };
    }

    private static Map<String, String> typed(WorkspaceDefaults.View view) {
        Map<String, String> typed = new LinkedHashMap<>(view.decisions());
        typed.put("approvalTtl", view.approvalTtl() == null ? "" : view.approvalTtl());
        typed.put("timeZone", view.timeZone());
        return typed;
    }

    /** POST /workspaces/{workspaceId}/defaults (a decision per risk level, approvalTtl, timeZone) */
    public Mono<ServerResponse> saveDefaults(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "change the defaults");
            ObjectNode body = Forms.object();
            ObjectNode decisions = body.putObject("decisions");
            Map<String, String> typed = new LinkedHashMap<>();
            for (RiskLevel level : RiskLevel.values()) {
                String value = Forms.text(submitted.form(), "decision-" + level.wire());
                typed.put(level.wire(), value == null ? "" : value);
                if (value != null) {
                    decisions.put(level.wire(), value);
                }
            }
            String ttl = Forms.text(submitted.form(), "approvalTtl");
            String zone = Forms.text(submitted.form(), "timeZone");
            typed.put("approvalTtl", ttl == null ? "" : ttl);
            typed.put("timeZone", zone == null ? "" : zone);
            Forms.putText(body, "approvalTtl", ttl);
            Forms.putText(body, "timeZone", zone);
            UUID workspaceId = member.workspaceId();
            Map<String, String> inputs = new LinkedHashMap<>(Map.of("approvalTtl", "approvalTtl", "timeZone", "timeZone",
                    "decisions", "decision-low"));
            Arrays.stream(RiskLevel.values()).forEach(l -> inputs.put("decisions." + l.wire(), "decision-" + l.wire()));
            return defaults.set(submitted.reader().session().user(), workspaceId, body, CorrelationIds.of(request))
                    .flatMap(applied -> admin.applied(workspaceId, applied, "/workspaces/" + workspaceId + "/policies?done=defaults#defaults"))
                    .onErrorResume(e -> FormErrors.of(e, inputs)
                            .map(errors -> listModel(submitted.reader(), member, request, errors, typed)
                                    .flatMap(model -> admin.pages.page(errors.status(), "policies", model)))
                            .orElseGet(() -> Mono.error(e)));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /** POST /workspaces/{workspaceId}/policies/{policyId}/move (direction=up|down): swaps it with its neighbour. */
    public Mono<ServerResponse> move(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "reorder policies");
            UUID workspaceId = member.workspaceId();
            String policyId = ConsoleRequests.uuid(request.pathVariable("policyId")).toString();
            boolean up = "up".equals(submitted.field("direction"));
            return policies.list(workspaceId).flatMap(list -> {
                int at = indexOf(list, policyId);
                int other = up ? at - 1 : at + 1;
                if (other < 0 || other >= list.size()) {
                    return ServerResponse.seeOther(URI.create("/workspaces/" + workspaceId + "/policies")).build();
                }
                PolicyAdmin.PolicyView moved = list.get(at);
                PolicyAdmin.PolicyView neighbour = list.get(other);
                // equal priorities are ordered by id: then the moved one goes one step past its neighbour
                int movedPriority = moved.priority() != neighbour.priority() ? neighbour.priority()
                        : neighbour.priority() + (up ? -1 : 1);
                int neighbourPriority = moved.priority() != neighbour.priority() ? moved.priority() : neighbour.priority();
                var user = submitted.reader().session().user();
                String correlationId = CorrelationIds.of(request);
                return save(user, workspaceId, moved, movedPriority, correlationId)
                        .then(save(user, workspaceId, neighbour, neighbourPriority, correlationId))
                        .flatMap(applied -> admin.applied(workspaceId, applied, "/workspaces/" + workspaceId + "/policies?done=moved"));
            });
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private Mono<Applied> save(AuthenticatedUser user, UUID workspaceId, PolicyAdmin.PolicyView view, int priority,
                               String correlationId) {
        ObjectNode body = PolicyDraft.body(view);
        body.remove("id");
        body.put("priority", priority);
        return policies.check(body, UUID.fromString(view.id()), false)
                .flatMap(policy -> policies.save(user, workspaceId, policy, correlationId));
    }

    private static int indexOf(List<PolicyAdmin.PolicyView> list, String policyId) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).id().equals(policyId)) {
                return i;
            }
        }
        throw ConsoleException.notFound();
    }

    /** POST /workspaces/{workspaceId}/policies/{policyId}/delete */
    public Mono<ServerResponse> delete(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "delete policies");
            UUID workspaceId = member.workspaceId();
            UUID policyId = ConsoleRequests.uuid(request.pathVariable("policyId"));
            return policies.delete(submitted.reader().session().user(), workspaceId, policyId, CorrelationIds.of(request))
                    .flatMap(applied -> admin.applied(workspaceId, applied, "/workspaces/" + workspaceId + "/policies?done=deleted"));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /** GET /workspaces/{workspaceId}/policies/new[?auditLogId=…] */
    public Mono<ServerResponse> create(ServerRequest request) {
        return admin.requests.reader(request).flatMap(reader -> {
            Membership member = AdminPages.admin(reader, request, "edit policies");
            PolicyTestInput test = request.queryParam("auditLogId").filter(id -> !id.isBlank())
                    .map(id -> PolicyTestInput.defaults().recorded(ConsoleRequests.uuid(id).toString()))
                    .orElse(PolicyTestInput.defaults());
            return policies.list(member.workspaceId()).map(list -> {
                int next = list.stream().mapToInt(PolicyAdmin.PolicyView::priority).max().orElse(0) + 10;
                return editorModel(reader, member, PolicyDraft.blank(next), test, FormErrors.none(), FormErrors.none());
            });
        }).flatMap(model -> admin.pages.page("policy", model)).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /** GET /workspaces/{workspaceId}/policies/{policyId}/edit */
    public Mono<ServerResponse> edit(ServerRequest request) {
        return admin.requests.reader(request).flatMap(reader -> {
            Membership member = AdminPages.admin(reader, request, "edit policies");
            String policyId = ConsoleRequests.uuid(request.pathVariable("policyId")).toString();
            return policies.list(member.workspaceId()).map(list -> {
                PolicyAdmin.PolicyView view = list.stream().filter(p -> p.id().equals(policyId))
                        .findFirst().orElseThrow(ConsoleException::notFound);
                return editorModel(reader, member, PolicyDraft.of(view), PolicyTestInput.defaults(), FormErrors.none(),
                        FormErrors.none());
            });
        }).flatMap(model -> admin.pages.page("policy", model)).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /** POST /workspaces/{workspaceId}/policies/editor (intent=backtest|test|save) */
    public Mono<ServerResponse> submit(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Reader reader = submitted.reader();
            Membership member = AdminPages.admin(reader, request, "edit policies");
            UUID workspaceId = member.workspaceId();
            PolicyDraft draft = PolicyDraft.of(submitted.form());
            if (!draft.isNew()) {
                ConsoleRequests.uuid(draft.policyId());
            }
            PolicyTestInput test = PolicyTestInput.of(submitted.form());
            String intent = submitted.field("intent") == null ? "" : submitted.field("intent");
            UUID policyId = draft.isNew() ? UUID.randomUUID() : UUID.fromString(draft.policyId());
            String correlationId = CorrelationIds.of(request);
            // the draft first, alone: its errors are its own fields'
            return policies.check(draft.body(), policyId, false)
                    .map(parsed -> new Checked(parsed, FormErrors.none()))
                    .onErrorResume(ApiException.class, invalid -> FormErrors.of(invalid, PolicyDraft.INPUTS)
                            .map(errors -> Mono.just(new Checked(null, errors)))
                            .orElseGet(() -> Mono.error(invalid)))
                    .flatMap(checked -> checked.errors().any()
                            ? rerender(reader, member, draft, test, checked.errors(), FormErrors.none(), null, null)
                            : act(intent, submitted, reader, member, draft, test, policyId, checked.policy(), correlationId));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /** A draft checked by the admin API's rules: the policy, or the errors at its inputs. */
    private record Checked(Policy policy, FormErrors errors) {}

    /** What the editor's button asked for, with a draft that checked out. */
    private Mono<ServerResponse> act(String intent, ConsoleRequests.Submission submitted, Reader reader, Membership member,
                                     PolicyDraft draft, PolicyTestInput test, UUID policyId, Policy parsed,
                                     String correlationId) {
        UUID workspaceId = member.workspaceId();
        // what the page shows is always about the draft as it is now: a result shown before is computed again with it
        boolean withBacktest = intent.equals("backtest") || (intent.equals("test") && Forms.checked(submitted.form(), "shownBacktest"));
        boolean withTest = intent.equals("test") || (intent.equals("backtest") && Forms.checked(submitted.form(), "shownTest"));
        return switch (intent) {
            case "save" -> policies.save(reader.session().user(), workspaceId, parsed, correlationId)
                    .flatMap(applied -> admin.applied(workspaceId, applied, "/workspaces/" + workspaceId + "/policies?saved=" + policyId))
                    .onErrorResume(e -> FormErrors.of(e, PolicyDraft.INPUTS)
                            .map(errors -> rerender(reader, member, draft, test, errors, FormErrors.none(), null, null))
                            .orElseGet(() -> Mono.error(e)));
            case "backtest", "test" -> (withBacktest ? backtest(workspaceId, draft, policyId, test, correlationId).map(Optional::of)
                    : Mono.just(Optional.<BacktestReport>empty()))
                    .flatMap(report -> (withTest ? decide(workspaceId, draft, policyId, test, correlationId).map(Optional::of)
                            : Mono.just(Optional.<TestResult>empty()))
                            .flatMap(result -> rerender(reader, member, draft, test, FormErrors.none(), FormErrors.none(),
                                    report.orElse(null), result.orElse(null))))
                    .onErrorResume(e -> FormErrors.of(e, testInputs())
                            .map(errors -> rerender(reader, member, draft, test, FormErrors.none(), errors, null, null))
                            .orElseGet(() -> Mono.error(e)));
            default -> Mono.error(ConsoleException.badRequest("Unsupported action."));
        };
    }

    /** The API's fields of a back-test and a test → the editor's inputs. */
    private static Map<String, String> testInputs() {
        Map<String, String> inputs = new LinkedHashMap<>(PolicyTestInput.INPUTS);
        inputs.put("from", "days");
        return inputs;
    }

    private Mono<ServerResponse> rerender(Reader reader, Membership member, PolicyDraft draft, PolicyTestInput test,
                                          FormErrors errors, FormErrors testErrors, BacktestReport report, TestResult result) {
        Map<String, Object> model = editorModel(reader, member, draft, test, errors, testErrors);
        model.put("report", report);
        model.put("testResult", result);
        return admin.pages.page(errors.any() ? errors.status() : testErrors.any() ? testErrors.status() : HttpStatus.OK,
                "policy", model);
    }

    /** The live policies with the draft in place of the policy it edits (or added): the set the draft would make. */
    private Mono<ArrayNode> candidate(UUID workspaceId, PolicyDraft draft, UUID policyId) {
        return policies.list(workspaceId).map(live -> candidate(live, draft, policyId));
    }

    private static ArrayNode candidate(List<PolicyAdmin.PolicyView> policies, PolicyDraft draft, UUID policyId) {
        ArrayNode set = Forms.object().arrayNode();
        boolean replaced = false;
        for (PolicyAdmin.PolicyView live : policies) {
            if (live.id().equals(policyId.toString())) {
                set.add(draftBody(draft, policyId));
                replaced = true;
            } else {
                set.add(PolicyDraft.body(live));
            }
        }
        if (!replaced) {
            set.add(draftBody(draft, policyId));
        }
        return set;
    }

    private static ObjectNode draftBody(PolicyDraft draft, UUID policyId) {
        ObjectNode body = draft.body();
        body.put("id", policyId.toString());
        return body;
    }

    private Mono<BacktestReport> backtest(UUID workspaceId, PolicyDraft draft, UUID policyId, PolicyTestInput test,
                                          String correlationId) {
        int days;
        try {
            days = Integer.parseInt(test.days().strip());
        } catch (NumberFormatException e) {
            days = -1;
        }
        if (days < 1 || days > PolicyTestInput.MAX_DAYS) {
            return Mono.error(ApiException.badField("from", "The history to replay must be 1 to " + PolicyTestInput.MAX_DAYS + " days."));
        }
        Instant from = Instant.now().minus(Duration.ofDays(days));
        return candidate(workspaceId, draft, policyId).map(set -> {
            ObjectNode body = Forms.object();
            body.set("policies", set);
            body.put("from", from.toString());
            return body;
        }).flatMap(body -> backtests.run(workspaceId, body, correlationId));
    }

    private Mono<TestResult> decide(UUID workspaceId, PolicyDraft draft, UUID policyId, PolicyTestInput test, String correlationId) {
        return candidate(workspaceId, draft, policyId).map(set -> {
            ObjectNode body = Forms.object();
            body.set("policies", set);
            if (test.isRecorded()) {
                Forms.putText(body, "auditLogId", test.auditLogId().isBlank() ? null : test.auditLogId().strip());
                if (!body.has("auditLogId")) {
                    throw ApiException.badField("auditLogId", "Give the audit log id of a recorded evaluation of this workspace.");
                }
            } else {
                ObjectNode action = body.putObject("action");
                Forms.putText(action, "tool", blank(test.tool()));
                Forms.putText(action, "action", blank(test.action()));
                Forms.putText(action, "riskLevel", blank(test.riskLevel()));
                Forms.putText(action, "agentId", blank(test.agentId()));
                if (!test.payload().isBlank()) {
                    try {
                        action.set("payload", tools.jackson.databind.json.JsonMapper.builder().build().readTree(test.payload()));
                    } catch (RuntimeException notJson) {
                        throw ApiException.badField("action.payload", "The payload must be JSON, e.g. {\"branch\": \"main\"}.");
                    }
                }
            }
            return body;
        }).flatMap(body -> tests.test(workspaceId, body, correlationId)
                .map(answer -> TestResult.of(answer, (ArrayNode) body.get("policies"), policyId.toString())));
    }

    private static String blank(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private Map<String, Object> editorModel(Reader reader, Membership member, PolicyDraft draft, PolicyTestInput test,
                                            FormErrors errors, FormErrors testErrors) {
        Map<String, Object> model = admin.model(reader, member, "policies");
        model.put("draft", draft);
        model.put("test", test);
        model.put("errors", errors);
        model.put("testErrors", testErrors);
        model.put("conditionProblem", FormErrors.conditionProblem(errors.get("condition"), draft.condition()).orElse(null));
        model.put("tools", Arrays.stream(Tool.values()).map(Tool::wire).toList());
        model.put("riskLevels", Arrays.stream(RiskLevel.values()).map(RiskLevel::wire).toList());
        model.put("decisions", Arrays.stream(Decision.values()).map(Decision::wire).toList());
        model.put("sources", Arrays.stream(ActionSource.values()).map(ActionSource::wire).toList());
        model.put("identities", Arrays.stream(AgentIdentity.values()).map(AgentIdentity::wire).toList());
        model.put("maxDays", PolicyTestInput.MAX_DAYS);
        model.put("report", null);
        model.put("testResult", null);
        return model;
    }

    /** A policy as the list shows it: what it matches, in words. */
    public record PolicyRow(String id, String name, int priority, boolean enabled, String decision, List<String> matches,
                            String condition, String description, Instant updatedAt) {
        static PolicyRow of(PolicyAdmin.PolicyView view) {
            List<String> matches = new ArrayList<>();
            JsonNode match = view.match();
            part(matches, match, "tools", "tools");
            part(matches, match, "actions", "actions");
            part(matches, match, "riskLevels", "risk");
            part(matches, match, "sources", "entry points");
            part(matches, match, "agentIds", "agents");
            part(matches, match, "resourceTypes", "resource types");
            part(matches, match, "resourceIds", "resources");
            if (match != null && match.hasNonNull("agentIdentity")) {
                matches.add("agent identity: " + match.get("agentIdentity").asString());
            }
            if (matches.isEmpty()) {
                matches.add("every action");
            }
            return new PolicyRow(view.id(), view.name(), view.priority(), view.enabled(), view.decision(), matches,
                    view.condition(), view.description(), view.updatedAt());
        }

        private static void part(List<String> parts, JsonNode match, String field, String label) {
            if (match != null && match.get(field) != null && match.get(field).isArray() && !match.get(field).isEmpty()) {
                List<String> values = new ArrayList<>();
                match.get(field).forEach(v -> values.add(v.asString()));
                parts.add(label + ": " + String.join(", ", values));
            }
        }
    }

    /** The test box's answer: the decision under the draft, and each policy's check in evaluation order. */
    public record TestResult(String decision, String reason, String matchedPolicyName, boolean matchedIsDraft, String riskLevel,
                             String inputs, List<Check> checks) {
        public record Check(String name, int priority, String decision, boolean listsMatch, String condition,
                            String conditionValue, String conditionError, boolean matched, boolean draft) {}

        static TestResult of(ObjectNode answer, ArrayNode candidate, String draftId) {
            Map<String, String> names = new LinkedHashMap<>();
            candidate.forEach(p -> names.put(p.path("id").asString(), p.path("name").asString()));
            String matchedId = answer.path("matchedPolicyId").isString() ? answer.get("matchedPolicyId").asString() : null;
            List<Check> checks = new ArrayList<>();
            for (JsonNode p : answer.path("policies")) {
                String value = p.has("conditionValue") && !p.get("conditionValue").isNull() ? p.get("conditionValue").toString() : null;
                checks.add(new Check(p.path("name").asString(), p.path("priority").asInt(), p.path("decision").asString(),
                        p.path("listsMatch").asBoolean(), p.hasNonNull("condition") ? p.get("condition").asString() : null, value,
                        p.hasNonNull("conditionError") ? p.get("conditionError").asString() : null, p.path("matched").asBoolean(),
                        draftId.equals(p.path("id").asString())));
            }
            return new TestResult(answer.path("decision").asString(), answer.path("reason").asString(),
                    matchedId == null ? null : Optional.ofNullable(names.get(matchedId)).orElse(matchedId),
                    draftId.equals(matchedId), answer.path("riskLevel").asString(), answer.path("inputs").asString(), checks);
        }
    }
}
