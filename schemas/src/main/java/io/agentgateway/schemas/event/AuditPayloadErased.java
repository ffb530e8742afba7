package io.agentgateway.schemas.event;

/**
 * An admin erased the stored payload of an audit entry (a privacy request): the read model drops the excerpt and
 * keeps its digest, which the Merkle log sealed, so the log still verifies. Itself an entry of the log.
 *
 * @param auditLogId the audit entry whose payload goes
 * @param reason     why, as the admin gave it (at most 2,000 characters), or null
 */
public record AuditPayloadErased(String auditLogId, String reason) implements DomainEvent {}
