package io.agentgateway.classification;

import graphql.GraphQLException;
import graphql.language.Argument;
import graphql.language.Document;
import graphql.language.Field;
import graphql.language.FragmentDefinition;
import graphql.language.FragmentSpread;
import graphql.language.InlineFragment;
import graphql.language.OperationDefinition;
import graphql.language.Selection;
import graphql.language.SelectionSet;
import graphql.language.Value;
import graphql.language.VariableReference;
import graphql.parser.Parser;
import graphql.parser.ParserEnvironment;
import graphql.parser.ParserOptions;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The GraphQL APIs behind the proxy, each named by its tool's profile with what differs between them
 * ({@link GraphQlMutations}: the issue tracker's, spec 4.5's table, and the code host's,
 * {@code POST …/code_host/graphql}). The body's {@code query} is parsed with graphql-java (never a
 * regex); {@code operationName} picks the operation when the document holds several (required then); a
 * document with two operations of one name is refused, as the upstream could run either. Queries (and
 * subscriptions) are {@code read}/low. A mutation is classified by each of its root fields (fragments
 * and aliases followed) and, where the API names operations (the issue tracker, the spec's table), by its
 * operation name, and the
 * most severe wins: an operation named {@code IssueCreate} that deletes an issue is an
 * {@code issue.delete}, and a document that merges a pull request and comments is a merge.
 *
 * <p>Risks come from {@link RiskClassifier}, the decision stream's table (one table with the REST rows),
 * so unknown mutations are medium and delete-like ones high. A mutation is never low: a root field
 * whose action string the table would call low ({@code createUserList} → {@code user.list.create} is
 * not, but a field ending in {@code …Get} would be) gets {@code .mutation} appended.
 */
public final class GraphQlActions {
    private static final RiskClassifier RISKS = new RiskClassifier();
    /** The action of every query and subscription (spec 4.5's {@code read} rows). */
    public static final String READ = "read";
    private static final String MUTATION_SUFFIX = ".mutation";

    private GraphQlActions() {}

    /**
     * @param tool a tool whose profile names a GraphQL API (the issue tracker, the code host)
     * @return the action string and its risk (no resource: GraphQL names none in one place)
     * @throws MalformedCallException with a clear message for a body that is not one GraphQL request (the proxy
     *                                answers 400 with it)
     */
    public static ClassifiedAction classify(Tool tool, JsonNode body) {
        if (!(body instanceof ObjectNode request)) {
            throw new MalformedCallException("The GraphQL request body must be a JSON object with a query");
        }
        JsonNode query = request.get("query");
        if (query == null || !query.isString() || query.asString().isBlank()) {
            throw new MalformedCallException("query must be a non-empty string holding a GraphQL document");
        }
        JsonNode variables = request.get("variables");
        if (variables != null && !variables.isNull() && !variables.isObject()) {
            throw new MalformedCallException("variables must be an object");
        }
        JsonNode name = request.get("operationName");
        if (name != null && !name.isNull() && !name.isString()) {
            throw new MalformedCallException("operationName must be a string");
        }
        Document document = parse(query.asString());
        OperationDefinition operation = pick(document, name == null || name.isNull() ? null : name.asString());
        if (operation.getOperation() != OperationDefinition.Operation.MUTATION) {
            return new ClassifiedAction(READ, RiskLevel.LOW);
        }
        return mutation(tool, document, operation, variables instanceof ObjectNode given ? given : null);
    }

    /**
     * The operation of a GraphQL request, as policy conditions read it: parsed and picked by the same rules as
     * {@link #classify} (call it after classify accepted the body).
     *
     * @throws MalformedCallException for a body that is not one GraphQL request
     */
    public static GraphQlOperation describe(JsonNode body) {
        if (!(body instanceof ObjectNode request) || request.get("query") == null || !request.get("query").isString()) {
            throw new MalformedCallException("The GraphQL request body must be a JSON object with a query");
        }
        JsonNode name = request.get("operationName");
        Document document = parse(request.get("query").asString());
        OperationDefinition operation = pick(document, name == null || !name.isString() ? null : name.asString());
        if (operation.getOperation() != OperationDefinition.Operation.MUTATION) {
            return new GraphQlOperation(operation.getName(), false, List.of(), Map.of());
        }
        Map<String, FragmentDefinition> fragments = document.getDefinitionsOfType(FragmentDefinition.class).stream()
                .collect(Collectors.toMap(FragmentDefinition::getName, f -> f, (a, b) -> a));
        List<Field> rootFields = new ArrayList<>();
        collectFields(operation.getSelectionSet(), fragments, new HashSet<>(), rootFields);
        JsonNode variables = request.get("variables");
        Map<String, String> ids = new LinkedHashMap<>();
        for (Field field : rootFields) {
            for (Argument argument : field.getArguments()) {
                if (argument.getName().equals("id")) {
                    String id = stringValue(argument.getValue(), variables);
                    if (id != null) {
                        ids.putIfAbsent(field.getName(), id);
                    }
                }
            }
        }
        return new GraphQlOperation(operation.getName(), true, rootFields.stream().map(Field::getName).toList(), ids);
    }

    private static String stringValue(Value<?> value, JsonNode variables) {
        if (value instanceof graphql.language.StringValue string) {
            return string.getValue();
        }
        if (value instanceof VariableReference reference && variables != null && variables.isObject()) {
            JsonNode given = variables.get(reference.getName());
            return given != null && given.isString() ? given.asString() : null;
        }
        return null;
    }

    private static Document parse(String query) {
        try {
            return Parser.parse(ParserEnvironment.newParserEnvironment()
                    .document(query)
                    // the operation limits (tokens, depth): a huge document is refused, not parsed at length
                    .parserOptions(ParserOptions.getDefaultOperationParserOptions())
                    .build());
        } catch (GraphQLException e) {
            throw new MalformedCallException("Malformed GraphQL query: " + e.getMessage());
        }
    }

    private static OperationDefinition pick(Document document, String operationName) {
        List<OperationDefinition> operations = document.getDefinitionsOfType(OperationDefinition.class);
        if (operations.isEmpty()) {
            throw new MalformedCallException("Malformed GraphQL query: the document holds no operation");
        }
        Set<String> names = new HashSet<>();
        for (OperationDefinition operation : operations) {
            if (operation.getName() != null && !names.add(operation.getName())) {
                throw new MalformedCallException("The GraphQL document holds two operations named " + operation.getName()
                        + "; operation names must be unique");
            }
        }
        if (operationName != null) {
            return operations.stream().filter(op -> operationName.equals(op.getName())).findFirst()
                    .orElseThrow(() -> new MalformedCallException(
                            "operationName " + operationName + " names no operation of the document"));
        }
        if (operations.size() > 1) {
            throw new MalformedCallException("operationName is required when the document holds several operations");
        }
        return operations.get(0);
    }

    private static ClassifiedAction mutation(Tool tool, Document document, OperationDefinition operation, ObjectNode variables) {
        GraphQlMutations mutations = mutationsOf(tool);
        List<String> candidates = new ArrayList<>();
        if (operation.getName() != null) {
            mutations.ofOperationName(operation.getName()).ifPresent(candidates::add);
        }
        Map<String, FragmentDefinition> fragments = document.getDefinitionsOfType(FragmentDefinition.class).stream()
                .collect(Collectors.toMap(FragmentDefinition::getName, f -> f, (a, b) -> a));
        List<Field> rootFields = new ArrayList<>();
        collectFields(operation.getSelectionSet(), fragments, new HashSet<>(), rootFields);
        for (Field field : rootFields) {
            String action = mutations.ofField(field, operation, variables);
            candidates.add(risk(tool, action) == RiskLevel.LOW ? action + MUTATION_SUFFIX : action);
        }
        if (candidates.isEmpty()) {
            candidates.add("mutation.unknown");
        }
        String worst = candidates.get(0);
        RiskLevel worstRisk = risk(tool, worst);
        for (String candidate : candidates) {
            RiskLevel risk = risk(tool, candidate);
            if (risk.ordinal() > worstRisk.ordinal()) {
                worst = candidate;
                worstRisk = risk;
            }
        }
        return new ClassifiedAction(worst, worstRisk);
    }

    private static void collectFields(SelectionSet set, Map<String, FragmentDefinition> fragments, Set<String> visited,
                                      List<Field> into) {
        if (set == null) {
            return;
        }
        for (Selection<?> selection : set.getSelections()) {
            if (selection instanceof Field field) {
                if (!field.getName().startsWith("__")) {
                    into.add(field);
                }
            } else if (selection instanceof InlineFragment inline) {
                collectFields(inline.getSelectionSet(), fragments, visited, into);
            } else if (selection instanceof FragmentSpread spread && visited.add(spread.getName())) {
                FragmentDefinition fragment = fragments.get(spread.getName());
                if (fragment == null) {
                    throw new MalformedCallException("Malformed GraphQL query: fragment " + spread.getName() + " is not defined");
                }
                collectFields(fragment.getSelectionSet(), fragments, visited, into);
            }
        }
    }

    /** The GraphQL API of the tool's profile; a tool without one is a caller's mistake. */
    private static GraphQlMutations mutationsOf(Tool tool) {
        return ToolProfiles.of(tool).proxy().flatMap(ToolProfile.Proxied::graphQl)
                .orElseThrow(() -> new IllegalArgumentException("the " + tool.wire() + " tool has no GraphQL API"));
    }

    /** Fields that name the resource first: {@code issueCreate} → {@code issue.create}. */
    static String actionOfField(String field) {
        return String.join(".", words(field));
    }

    /** The camel-case words of a field name, in lower case: {@code addProjectV2Item} → add, project, v2, item. */
    static List<String> words(String field) {
        List<String> words = new ArrayList<>();
        int start = 0;
        for (int i = 1; i < field.length(); i++) {
            char previous = field.charAt(i - 1);
            if (Character.isUpperCase(field.charAt(i)) && (Character.isLowerCase(previous) || Character.isDigit(previous))) {
                words.add(field.substring(start, i).toLowerCase(Locale.ROOT));
                start = i;
            }
        }
        words.add(field.substring(start).toLowerCase(Locale.ROOT));
        return words;
    }

    private static RiskLevel risk(Tool tool, String action) {
        return RISKS.classify(tool, action, null).orElseThrow().level();
    }
}
