package io.agentgateway.classification;

import io.agentgateway.schemas.RiskClassification;
import io.agentgateway.schemas.RiskLevel;

/** The risk an evaluation uses, and whether the gateway derived it or took the caller's word. */
public record ClassifiedRisk(RiskLevel level, RiskClassification classification) {}
