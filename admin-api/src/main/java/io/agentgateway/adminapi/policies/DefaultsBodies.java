package io.agentgateway.adminapi.policies;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.WireNames;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import java.time.Duration;
import java.time.ZoneId;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates {@code {decisions:{low:"allow",...}, approvalTtl:"PT24H", timeZone:"Europe/Berlin"}}; any part may be
 * left out. {@code timeZone} is an IANA id (or UTC): policy conditions read a command's time in it.
 */
final class DefaultsBodies {
    private DefaultsBodies() {}

    static SetWorkspaceDefaults parse(ObjectNode body) {
        JsonFields.onlyKnownFields(body, Set.of("decisions", "approvalTtl", "timeZone"), "");
        Map<RiskLevel, Decision> decisions = decisions(body.get("decisions"));
        Duration ttl = JsonFields.optionalDuration(body, "approvalTtl");
        if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
            throw ApiException.badField("approvalTtl", "approvalTtl must be a positive ISO-8601 duration such as PT24H");
        }
        if (ttl != null && ttl.compareTo(SetWorkspaceDefaults.MAX_APPROVAL_TTL) > 0) {
            // an expiry computed from a huge TTL overflows: every approval of the workspace would fail
            throw ApiException.badField("approvalTtl", "approvalTtl must be at most P366D");
        }
        String timeZone = JsonFields.optionalString(body, "timeZone");
        if (timeZone != null && !"UTC".equals(timeZone) && !ZoneId.getAvailableZoneIds().contains(timeZone)) {
            throw ApiException.badField("timeZone", "timeZone must be an IANA time zone id such as Europe/Berlin, or UTC");
        }
        if (decisions.isEmpty() && ttl == null && timeZone == null) {
            throw ApiException.badRequest("decisions, approvalTtl or timeZone is required");
        }
        return new SetWorkspaceDefaults(decisions, ttl, timeZone);
    }

    private static Map<RiskLevel, Decision> decisions(JsonNode node) {
        Map<RiskLevel, Decision> decisions = new EnumMap<>(RiskLevel.class);
        if (node == null || node.isNull()) {
            return decisions;
        }
        if (!node.isObject()) {
            throw ApiException.badField("decisions", "decisions must be an object");
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            RiskLevel level = RiskLevel.parse(entry.getKey()).orElseThrow(() -> ApiException.badField("decisions",
                    "decisions keys must be risk levels: " + WireNames.of(RiskLevel.values())));
            JsonNode value = entry.getValue();
            Decision decision = (value.isString() ? Decision.parse(value.stringValue()) : Optional.<Decision>empty())
                    .orElseThrow(() -> ApiException.badField("decisions." + entry.getKey(), "decisions." + entry.getKey() + " must be one of: " + WireNames.of(Decision.values())));
            decisions.put(level, decision);
        }
        return decisions;
    }
}
