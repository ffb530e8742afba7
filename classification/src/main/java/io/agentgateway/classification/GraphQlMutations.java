package io.agentgateway.classification;

import graphql.language.Field;
import graphql.language.OperationDefinition;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * How one tool's GraphQL API names what a mutation does, as action strings of its risk table: the part of
 * GraphQL classification that differs between APIs ({@link GraphQlActions} does the rest: parsing, operation
 * choice, fragments, the most severe candidate). A tool's profile names its API's ({@link ToolProfile.Proxied#graphQl()}).
 */
public interface GraphQlMutations {

    /** The action a mutation's operation name stands for (an API whose clients name operations by what they do), or empty. */
    Optional<String> ofOperationName(String operationName);

    /** The action of one root field of the mutation (fragments and aliases already followed). */
    String ofField(Field field, OperationDefinition operation, ObjectNode variables);
}
