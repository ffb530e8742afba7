package io.agentgateway.schemas.command;

/**
 * Erase the stored payload of one audit entry of the workspace (admin or owner): an entry of the workspace's
 * Merkle log of its own; the audit row keeps the payload's digest.
 *
 * @param auditLogId the audit entry
 * @param reason     why (at most 2,000 characters), or null
 */
public record EraseAuditPayload(String auditLogId, String reason) implements Command {
    public static final int MAX_REASON_LENGTH = 2000;
}
