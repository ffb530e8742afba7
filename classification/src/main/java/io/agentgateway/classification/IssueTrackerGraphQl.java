package io.agentgateway.classification;

import graphql.language.Field;
import graphql.language.OperationDefinition;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The issue tracker's GraphQL API (spec 4.5's table): its operations by name, and its fields, which name the
 * resource first ({@code issueCreate} → {@code issue.create}).
 */
final class IssueTrackerGraphQl implements GraphQlMutations {
    /** Spec 4.5: the operations by name. */
    private static final Map<String, String> OPERATIONS = Map.of(
            "IssueCreate", "issue.create",
            "IssueUpdate", "issue.update",
            "IssueDelete", "issue.delete",
            "CommentCreate", "comment.create",
            "ProjectCreate", "project.create",
            "ProjectDelete", "project.delete");

    @Override
    public Optional<String> ofOperationName(String operationName) {
        return Optional.ofNullable(OPERATIONS.get(operationName));
    }

    @Override
    public String ofField(Field field, OperationDefinition operation, ObjectNode variables) {
        return GraphQlActions.actionOfField(field.getName());
    }
}
