package io.agentgateway.schemas.command.condition;

import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * What policy conditions read of an action beyond the evaluation's own fields (docs/policies.md): set by the entry
 * points that make the call (proxy, MCP gate), null from evaluate-action (its {@code payload} is the whole arguments)
 * and from writers before conditions.
 *
 * @param arguments      the whole arguments as the upstream gets them (the MCP {@code tools/call} arguments without
 *                       {@code _risk}, a proxied call's JSON body, a GraphQL request's {@code variables}), with values
 *                       that look like credentials replaced by {@code [redacted]} before they enter the log
 *                       (docs/decisions); null when the call has none, or when they were over the entry point's limit
 *                       (then {@code argumentsBytes} says their size and a condition reading them fails, fail closed)
 * @param argumentsBytes the size of the whole arguments as compact JSON (UTF-8) when they were left out; null otherwise
 * @param request        a proxied call's method, path, query and GraphQL operation; null for other entry points
 * @param target         what the call acts on as the entry point knows it (raw, including facts it looked up); null: none
 * @param unresolved     facts the entry point tried to look up and could not, e.g. {@code target.branch}; they are
 *                       absent from {@code target}, so a condition reading one fails (fail closed); null: none
 */
public record ConditionInputs(
        JsonNode arguments,
        Integer argumentsBytes,
        RequestFacts request,
        TargetFacts target,
        List<String> unresolved) {}
