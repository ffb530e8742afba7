package io.agentgateway.schemas.command.condition;

import java.util.List;
import java.util.Map;

/**
 * What a policy condition sees of a proxied request ({@code request} in docs/policies.md): exactly what the proxy
 * classified and forwards.
 *
 * @param method         the HTTP method, upper case
 * @param path           the canonical decoded segments of the upstream path, as forwarded
 * @param query          the query parameters, decoded, each name with its values in order; null without a query
 * @param operationName  a GraphQL request's operation name (the named operation, else the first); null otherwise
 * @param mutationFields a GraphQL mutation's root fields in document order; null for a query or a REST call
 */
public record RequestFacts(
        String method,
        List<String> path,
        Map<String, List<String>> query,
        String operationName,
        List<String> mutationFields) {}
