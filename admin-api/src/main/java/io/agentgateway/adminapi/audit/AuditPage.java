package io.agentgateway.adminapi.audit;

import java.util.List;

/** A page of the audit log, newest first; {@code next} is the position after its last row (null: the last page). */
public record AuditPage(List<AuditEntry> items, AuditCursor next) {}
