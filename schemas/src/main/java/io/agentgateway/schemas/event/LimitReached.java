package io.agentgateway.schemas.event;

/**
 * A command refused because the workspace is at one of its limits (the reply is {@code limited}); its
 * audit log entry. Nothing else changed. The kill switch is never refused this way.
 *
 * @param auditLogId  derived from the command id, like every audit entry
 * @param limit       which limit: {@code open_approvals}, {@code api_keys}, {@code policies},
 *                    {@code policy_bytes}, {@code repositories_per_connection}, {@code configuration_bytes}
 * @param cap         the limit's value in force (a count, or bytes)
 * @param command     the refused command's wire type, e.g. {@code issue_api_key}
 * @param message     the error the caller was given
 */
public record LimitReached(String auditLogId, String limit, long cap, String command, String message)
        implements DomainEvent {}
