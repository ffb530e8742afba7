package io.agentgateway.classification;

import graphql.language.ArrayValue;
import graphql.language.Argument;
import graphql.language.Field;
import graphql.language.NullValue;
import graphql.language.ObjectField;
import graphql.language.ObjectValue;
import graphql.language.OperationDefinition;
import graphql.language.Value;
import graphql.language.VariableDefinition;
import graphql.language.VariableReference;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The code host's GraphQL API ({@code POST …/code_host/graphql}): its mutations name the verb first, and those
 * that do what a REST row of spec 4.5 does take that row's action string. Operation names mean nothing here
 * (clients choose them freely).
 */
final class CodeHostGraphQl implements GraphQlMutations {
    /**
     * Its mutations (its public schema's names) that do what a REST row of spec 4.5 does,
     * mapped to that row's action string. Every other mutation field gets a string of its own words.
     */
    private static final Map<String, String> FIELDS = Map.ofEntries(
            Map.entry("mergePullRequest", "pull_request.merge"),
            Map.entry("enablePullRequestAutoMerge", "pull_request.merge"),
            Map.entry("enqueuePullRequest", "pull_request.merge"),
            Map.entry("createPullRequest", "pull_request.create"),
            // a revert opens a new pull request
            Map.entry("revertPullRequest", "pull_request.create"),
            Map.entry("updatePullRequest", "pull_request.update"),
            Map.entry("closePullRequest", "pull_request.update"),
            Map.entry("reopenPullRequest", "pull_request.update"),
            Map.entry("createIssue", "issues.create"),
            Map.entry("updateIssue", "issues.update"),
            Map.entry("closeIssue", "issues.update"),
            Map.entry("reopenIssue", "issues.update"),
            Map.entry("addComment", "issues.comment.create"),
            Map.entry("createCommitOnBranch", "file.write"),
            Map.entry("deleteRef", "ref.delete"),
            // creates, updates and/or deletes refs: read as its most severe effect
            Map.entry("updateRefs", "ref.delete"));
    private static final String COMMIT_ON_BRANCH = "createCommitOnBranch";

    @Override
    public Optional<String> ofOperationName(String operationName) {
        return Optional.empty();
    }

    /**
     * Its fields name the verb first: a field of {@link #FIELDS} takes its REST
     * row's action; any other moves its verb last, {@code addStar} → {@code star.add}, so it reads as
     * {@code <resource>.<verb>} like every other action. A commit that deletes files is a
     * {@code file.delete}, as the REST {@code DELETE …/contents/:path} is.
     */
    @Override
    public String ofField(Field field, OperationDefinition operation, ObjectNode variables) {
        String mapped = FIELDS.get(field.getName());
        if (mapped != null) {
            if (field.getName().equals(COMMIT_ON_BRANCH) && deletesFiles(field, operation, variables)) {
                return "file.delete";
            }
            return mapped;
        }
        List<String> words = GraphQlActions.words(field.getName());
        if (words.size() > 1) {
            words.add(words.remove(0));
        }
        return String.join(".", words);
    }

    /**
     * Whether a {@code createCommitOnBranch} names any file deletion: a {@code deletions} input field
     * anywhere in its arguments that is not null or an empty list, written inline, passed in the
     * request's variables or in a variable's default.
     */
    private static boolean deletesFiles(Field field, OperationDefinition operation, ObjectNode variables) {
        for (Argument argument : field.getArguments()) {
            if (namesDeletions(argument.getValue(), false, operation, variables)) {
                return true;
            }
        }
        return false;
    }

    private static boolean namesDeletions(Value<?> value, boolean isDeletions, OperationDefinition operation,
                                          ObjectNode variables) {
        if (value instanceof VariableReference reference) {
            JsonNode given = variables == null ? null : variables.get(reference.getName());
            if (given != null) {
                return jsonNamesDeletions(given, isDeletions);
            }
            return operation.getVariableDefinitions().stream()
                    .filter(definition -> definition.getName().equals(reference.getName()))
                    .map(VariableDefinition::getDefaultValue)
                    .anyMatch(defaultValue -> defaultValue != null && namesDeletions(defaultValue, isDeletions, operation, variables));
        }
        if (isDeletions) {
            return !(value instanceof NullValue) && !(value instanceof ArrayValue list && list.getValues().isEmpty());
        }
        if (value instanceof ObjectValue object) {
            for (ObjectField objectField : object.getObjectFields()) {
                if (namesDeletions(objectField.getValue(), objectField.getName().equals("deletions"), operation, variables)) {
                    return true;
                }
            }
        } else if (value instanceof ArrayValue list) {
            for (Value<?> item : list.getValues()) {
                if (namesDeletions(item, false, operation, variables)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean jsonNamesDeletions(JsonNode node, boolean isDeletions) {
        if (isDeletions) {
            return !node.isNull() && !(node.isArray() && node.isEmpty());
        }
        if (node.isObject()) {
            for (var entry : node.properties()) {
                if (jsonNamesDeletions(entry.getValue(), entry.getKey().equals("deletions"))) {
                    return true;
                }
            }
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                if (jsonNamesDeletions(item, false)) {
                    return true;
                }
            }
        }
        return false;
    }
}
