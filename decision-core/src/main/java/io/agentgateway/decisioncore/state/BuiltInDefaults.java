package io.agentgateway.decisioncore.state;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** The decision per risk level of a workspace that never changed its defaults (DESIGN.md). */
public final class BuiltInDefaults {
    private BuiltInDefaults() {}

    public static Map<RiskLevel, Decision> decisions() {
        EnumMap<RiskLevel, Decision> defaults = new EnumMap<>(RiskLevel.class);
        defaults.put(RiskLevel.LOW, Decision.ALLOW);
        defaults.put(RiskLevel.MEDIUM, Decision.ALLOW);
        defaults.put(RiskLevel.HIGH, Decision.REQUIRE_APPROVAL);
        defaults.put(RiskLevel.CRITICAL, Decision.BLOCK);
        return Collections.unmodifiableMap(defaults);
    }
}
