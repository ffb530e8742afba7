package io.agentgateway.adminapi.backtest;

import io.agentgateway.adminapi.policies.CandidatePolicies;
import io.agentgateway.backtest.BacktestRequest;
import io.agentgateway.decisioncore.condition.ConditionEnvironment;
import io.agentgateway.decisioncore.condition.ConditionLimits;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.JsonFields;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import tools.jackson.databind.node.ObjectNode;

/** Validates {@code {policies: [...], from, to?}}; {@code to} defaults to now. */
final class BacktestBodies {
    private static final Set<String> FIELDS = Set.of("policies", "from", "to");

    private BacktestBodies() {}

    static BacktestRequest parse(ObjectNode body, UUID workspaceId, Clock clock) {
        return parse(body, workspaceId, clock, ConditionEnvironment.of(ConditionLimits.defaults()));
    }

    /** @param conditions the environment the drafts' conditions are checked in (the stream's) */
    static BacktestRequest parse(ObjectNode body, UUID workspaceId, Clock clock, ConditionEnvironment conditions) {
        JsonFields.onlyKnownFields(body, FIELDS, "");
        if (JsonFields.isAbsent(body, "policies")) {
            throw ApiException.badRequest("policies is required (an array of policy bodies)");
        }
        var candidate = CandidatePolicies.parse(body.get("policies"), conditions);
        if (JsonFields.isAbsent(body, "from")) {
            throw ApiException.badRequest("from is required (an ISO-8601 timestamp)");
        }
        Instant from = JsonFields.optionalInstant(body, "from");
        Instant to = JsonFields.optionalInstant(body, "to");
        try {
            return new BacktestRequest(workspaceId.toString(), candidate, from, to == null ? clock.instant() : to);
        } catch (IllegalArgumentException e) {
            // the request's own rules (from before to): their texts are written for the caller
            throw ApiException.badRequest(e.getMessage());
        }
    }
}
