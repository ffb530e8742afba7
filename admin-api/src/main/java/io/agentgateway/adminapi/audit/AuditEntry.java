package io.agentgateway.adminapi.audit;

import java.time.Instant;
import tools.jackson.databind.JsonNode;

/** One row of the audit log as the admin API and the console show it. */
public record AuditEntry(String id, Instant occurredAt, String kind, String tool, String action, String riskLevel,
                         String suppliedRiskLevel, String riskClassification, boolean riskOverriddenByCaller,
                         String decision, String reason, String matchedPolicyId, String matchedPolicyName,
                         String approvalRequestId, String agentId, String agentName, String resourceType,
                         String resourceId, String requestedBy, String source, String actorUserId,
                         String correlationId, String commandId, String payloadExcerpt, boolean payloadTruncated,
                         Integer payloadBytes, boolean undelivered, String agentIdentity, JsonNode conditionErrors) {}
