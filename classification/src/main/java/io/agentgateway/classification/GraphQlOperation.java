package io.agentgateway.classification;

import java.util.List;
import java.util.Map;

/**
 * What policy conditions read of a GraphQL request ({@code request.operationName}, {@code request.mutationFields}):
 * the operation the request runs (named or not), whether it is a mutation, and the mutation's root fields in document
 * order (fragments followed) with each one's {@code id} argument when it is a string (a literal, or a variable the
 * request's {@code variables} give a string).
 *
 * @param operationName the operation's name, or null for an anonymous one
 * @param mutation      whether it is a mutation
 * @param rootFields    a mutation's root fields (empty for a query)
 * @param rootFieldIds  by root field name, its {@code id} argument as a string, when it has one
 */
public record GraphQlOperation(String operationName, boolean mutation, List<String> rootFields, Map<String, String> rootFieldIds) {

    public GraphQlOperation {
        rootFields = List.copyOf(rootFields);
        rootFieldIds = Map.copyOf(rootFieldIds);
    }
}
