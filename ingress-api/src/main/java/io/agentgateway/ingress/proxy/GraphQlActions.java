package io.agentgateway.ingress.proxy;

import graphql.GraphQLException;
import graphql.language.Document;
import graphql.language.Field;
import graphql.language.FragmentDefinition;
import graphql.language.FragmentSpread;
import graphql.language.InlineFragment;
import graphql.language.OperationDefinition;
import graphql.language.Selection;
import graphql.language.SelectionSet;
import graphql.parser.Parser;
import graphql.parser.ParserEnvironment;
import graphql.parser.ParserOptions;
import io.agentgateway.decision.evaluation.RiskClassifier;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Spec 4.5's issue-tracker table. The body's {@code query} is parsed with graphql-java (never a
 * regex); {@code operationName} picks the operation when the document holds several. Queries (and
 * subscriptions) are {@code read}/low. A mutation is classified by its operation name (the spec's
 * table) and by each of its root fields ({@code issueDelete} → {@code issue.delete}, fragments
 * followed), and the most severe wins: an operation named {@code IssueCreate} that deletes an issue
 * is an {@code issue.delete}. Risks come from the decision stream's own {@link RiskClassifier}, so
 * unknown mutations are medium and delete-like ones high.
 */
final class GraphQlActions {
    private static final RiskClassifier RISKS = new RiskClassifier();
    private static final Map<String, String> OPERATIONS = Map.of(
            "IssueCreate", "issue.create",
            "IssueUpdate", "issue.update",
            "IssueDelete", "issue.delete",
            "CommentCreate", "comment.create",
            "ProjectCreate", "project.create",
            "ProjectDelete", "project.delete");

    private GraphQlActions() {}

    /** @throws ApiException 400 with a clear message for a body that is not a GraphQL request */
    static ProxyAction classify(JsonNode body) {
        if (!(body instanceof ObjectNode request)) {
            throw ApiException.badRequest("The GraphQL request body must be a JSON object with a query");
        }
        JsonNode query = request.get("query");
        if (query == null || !query.isString() || query.asString().isBlank()) {
            throw ApiException.badRequest("query must be a non-empty string holding a GraphQL document");
        }
        JsonNode variables = request.get("variables");
        if (variables != null && !variables.isNull() && !variables.isObject()) {
            throw ApiException.badRequest("variables must be an object");
        }
        JsonNode name = request.get("operationName");
        if (name != null && !name.isNull() && !name.isString()) {
            throw ApiException.badRequest("operationName must be a string");
        }
        Document document = parse(query.asString());
        OperationDefinition operation = pick(document, name == null || name.isNull() ? null : name.asString());
        if (operation.getOperation() != OperationDefinition.Operation.MUTATION) {
            return ProxyAction.of(PathTemplateActions.READ, RiskLevel.LOW);
        }
        return mutation(document, operation);
    }

    private static Document parse(String query) {
        try {
            return Parser.parse(ParserEnvironment.newParserEnvironment()
                    .document(query)
                    // the operation limits (tokens, depth): a huge document is refused, not parsed at length
                    .parserOptions(ParserOptions.getDefaultOperationParserOptions())
                    .build());
        } catch (GraphQLException e) {
            throw ApiException.badRequest("Malformed GraphQL query: " + e.getMessage());
        }
    }

    private static OperationDefinition pick(Document document, String operationName) {
        List<OperationDefinition> operations = document.getDefinitionsOfType(OperationDefinition.class);
        if (operations.isEmpty()) {
            throw ApiException.badRequest("Malformed GraphQL query: the document holds no operation");
        }
        if (operationName != null) {
            return operations.stream().filter(op -> operationName.equals(op.getName())).findFirst()
                    .orElseThrow(() -> ApiException.badRequest(
                            "operationName " + operationName + " names no operation of the document"));
        }
        if (operations.size() > 1) {
            throw ApiException.badRequest("operationName is required when the document holds several operations");
        }
        return operations.get(0);
    }

    private static ProxyAction mutation(Document document, OperationDefinition operation) {
        List<String> candidates = new ArrayList<>();
        String named = operation.getName() == null ? null : OPERATIONS.get(operation.getName());
        if (named != null) {
            candidates.add(named);
        }
        Map<String, FragmentDefinition> fragments = document.getDefinitionsOfType(FragmentDefinition.class).stream()
                .collect(Collectors.toMap(FragmentDefinition::getName, f -> f, (a, b) -> a));
        List<String> rootFields = new ArrayList<>();
        collectFields(operation.getSelectionSet(), fragments, new HashSet<>(), rootFields);
        rootFields.stream().map(GraphQlActions::actionOfField).forEach(candidates::add);
        if (candidates.isEmpty()) {
            candidates.add("mutation.unknown");
        }
        String worst = candidates.get(0);
        RiskLevel worstRisk = risk(worst);
        for (String candidate : candidates) {
            RiskLevel risk = risk(candidate);
            if (risk.ordinal() > worstRisk.ordinal()) {
                worst = candidate;
                worstRisk = risk;
            }
        }
        return ProxyAction.of(worst, worstRisk);
    }

    private static void collectFields(SelectionSet set, Map<String, FragmentDefinition> fragments, Set<String> visited,
                                      List<String> into) {
        if (set == null) {
            return;
        }
        for (Selection<?> selection : set.getSelections()) {
            if (selection instanceof Field field) {
                if (!field.getName().startsWith("__")) {
                    into.add(field.getName());
                }
            } else if (selection instanceof InlineFragment inline) {
                collectFields(inline.getSelectionSet(), fragments, visited, into);
            } else if (selection instanceof FragmentSpread spread && visited.add(spread.getName())) {
                FragmentDefinition fragment = fragments.get(spread.getName());
                if (fragment == null) {
                    throw ApiException.badRequest("Malformed GraphQL query: fragment " + spread.getName() + " is not defined");
                }
                collectFields(fragment.getSelectionSet(), fragments, visited, into);
            }
        }
    }

    /** {@code issueCreate} → {@code issue.create}; {@code createIssue} → {@code create.issue}. */
    static String actionOfField(String field) {
        return field.replaceAll("([a-z0-9])([A-Z])", "$1.$2").toLowerCase(Locale.ROOT);
    }

    private static RiskLevel risk(String action) {
        return RISKS.classify(Tool.ISSUE_TRACKER, action, null).orElseThrow().level();
    }
}
