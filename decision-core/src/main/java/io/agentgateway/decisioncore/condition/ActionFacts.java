package io.agentgateway.decisioncore.condition;

import io.agentgateway.schemas.command.condition.RequestFacts;
import io.agentgateway.schemas.command.condition.TargetFacts;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * What policy conditions read of an action beyond the fields the policy lists match on: taken from the command as
 * it is in the log (so replay and back-test read the same), never from the audit excerpt.
 *
 * @param arguments      the whole arguments (evaluate-action's payload, the MCP arguments, a proxied JSON body or
 *                       GraphQL variables, a webhook's payload); null: none
 * @param argumentsUnavailable why the arguments cannot be read although the action had some (the entry point left
 *                       them out over its limit, or a command from before conditions carried only an excerpt); null
 *                       when {@code arguments} is all there is
 * @param request        a proxied request's facts; null for other entry points
 * @param target         raw target facts the entry point knew; null: none (then derived from the arguments where the
 *                       source has a documented shape)
 * @param unresolved     facts the entry point could not look up; null: none
 * @param requestedBy    who initiated the action, or null
 * @param agentName      the agent's display name, or null
 * @param at             the command's own time (the envelope's acceptedAt), never the wall clock
 */
public record ActionFacts(
        JsonNode arguments,
        String argumentsUnavailable,
        RequestFacts request,
        TargetFacts target,
        List<String> unresolved,
        String requestedBy,
        String agentName,
        Instant at) {

    public static final ActionFacts NONE = new ActionFacts(null, null, null, null, null, null, null, null);
}
