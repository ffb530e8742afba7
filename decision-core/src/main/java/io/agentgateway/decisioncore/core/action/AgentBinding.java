package io.agentgateway.decisioncore.core.action;

import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.schemas.AgentIdentity;

/**
 * The agent an API key is bound to (docs/decisions/0021-api-keys-bound-to-an-agent.md). A key issued with
 * {@code agentId} or {@code agentIdPattern} acts only as that agent: a request naming another agent is refused
 * ({@code forbidden}, HTTP 403), one naming none acts as the bound id. Without a binding the agent a request names is
 * only asserted: any holder of a key of the workspace could name it, so a policy can ask for
 * {@code agentIdentity: bound}.
 */
final class AgentBinding {
    static final int MAX_QUOTED = 64;

    private AgentBinding() {}

    /** How {@code agentId} is known for a request made with {@code key}; null without an agent id. */
    static AgentIdentity identity(ApiKeyGrant key, String agentId) {
        if (agentId == null) {
            return null;
        }
        return key.boundToAgent() && key.mayActAs(agentId) ? AgentIdentity.BOUND : AgentIdentity.ASSERTED;
    }

    /** The refusal of a request that names an agent the key is not bound to. */
    static String refusal(ApiKeyGrant key, String named) {
        String bound = key.agentId() != null ? "agent '" + quoted(key.agentId()) + "'"
                : "agent ids matching '" + quoted(key.agentIdPattern()) + "'";
        return "This API key is bound to " + bound + " and cannot act as agent '" + quoted(named)
                + "' (X-Agent-Id / agentId); send the bound agent id or none";
    }

    private static String quoted(String value) {
        String printable = value.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() <= MAX_QUOTED ? printable : printable.substring(0, MAX_QUOTED) + "…";
    }
}
