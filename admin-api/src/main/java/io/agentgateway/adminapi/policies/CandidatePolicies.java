package io.agentgateway.adminapi.policies;

import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.condition.ConditionLimits;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.schemas.Policy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A candidate policy set for a back-test: an array of policy bodies exactly as the policy admin API
 * accepts them, checked by the same {@link PolicyBodies} rules (the CLI uses this class too, so a file
 * that back-tests is a file the API would take). An {@code id} is optional: give a live policy's id to
 * see it as the same policy; without one, a policy gets {@code 00000000-0000-0000-0000-00000000000N}
 * from its position N (1-based), so that ties in priority, broken by id, follow the array's order.
 */
public final class CandidatePolicies {
    private CandidatePolicies() {}

    /** @throws ApiException 400 naming the element and the rule it breaks */
    public static List<Policy> parse(JsonNode policies) {
        return parse(policies, ConditionEnvironment.of(ConditionLimits.defaults()));
    }

    /**
     * @param conditions the condition environment drafts are checked in (their conditions must compile, as the live
     *                   policies' did)
     * @throws ApiException 400 naming the element and the rule it breaks
     */
    public static List<Policy> parse(JsonNode policies, ConditionEnvironment conditions) {
        if (policies == null || !policies.isArray()) {
            throw ApiException.badRequest("policies must be an array of policy bodies");
        }
        List<Policy> parsed = new ArrayList<>();
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < policies.size(); i++) {
            Policy policy = parse(policies.get(i), i, conditions);
            Integer earlier = positions.putIfAbsent(policy.id(), i);
            if (earlier != null) {
                throw ApiException.badRequest("policies[" + i + "]: id repeats the id of policies[" + earlier + "]");
            }
            parsed.add(policy);
        }
        return List.copyOf(parsed);
    }

    private static Policy parse(JsonNode element, int index, ConditionEnvironment conditions) {
        if (!(element instanceof ObjectNode body)) {
            throw ApiException.badRequest("policies[" + index + "] must be an object");
        }
        try {
            boolean idGiven = !JsonFields.isAbsent(body, "id");
            UUID id = idGiven ? givenId(body) : new UUID(0, index + 1L);
            return PolicyBodies.parse(body, id, idGiven, conditions);
        } catch (ApiException e) {
            throw e.under("policies[" + index + "].", "policies[" + index + "]: ");
        }
    }

    private static UUID givenId(ObjectNode body) {
        JsonNode id = body.get("id");
        return Uuids.require(id.isString() ? id.stringValue() : null, "id");
    }
}
