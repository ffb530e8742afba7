package io.agentgateway.adminapi.export;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * Which audit rows an export contains: one workspace, {@code from} (inclusive) to {@code to}
 * (exclusive), and optionally the same filters as the audit-log query API (null = any; {@code undelivered}: true only
 * the rows whose decision reached nobody, false only the others).
 */
public record AuditExportFilter(UUID workspaceId, Instant from, Instant to, String correlationId, String agentId,
                                Tool tool, Decision decision, String action, RiskLevel riskLevel, ActionSource source,
                                Boolean undelivered) {

    public AuditExportFilter {
        Objects.requireNonNull(workspaceId, "workspaceId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException("from must be before to");
        }
    }

    public AuditExportFilter(UUID workspaceId, Instant from, Instant to, String correlationId, String agentId, Tool tool,
                             Decision decision) {
        this(workspaceId, from, to, correlationId, agentId, tool, decision, null, null, null, null);
    }

    /** Every row of the workspace in the time range. */
    public static AuditExportFilter range(UUID workspaceId, Instant from, Instant to) {
        return new AuditExportFilter(workspaceId, from, to, null, null, null, null);
    }
}
