package io.agentgateway.classification;

import io.agentgateway.schemas.RiskLevel;

/**
 * What a call does as policies see it: its action string ({@code <resource>.<verb>}, or {@code read}) and
 * the risk level the gateway derives for it.
 */
public record ClassifiedAction(String action, RiskLevel risk) {}
