package io.agentgateway.adminapi.audit;

import io.agentgateway.adminapi.evidence.EvidenceLogReader;
import io.agentgateway.adminapi.shared.AdminCommands;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.schemas.command.EraseAuditPayload;
import java.sql.Connection;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * A workspace's audit log, for every client of it (the admin API, the console's explorer and approval timelines): its
 * rows newest first in keyset pages with the API's filters, one row, and a row's payload erased (a privacy request),
 * which is a command like any other: decided in log order and sealed into the Merkle log as an entry of its own.
 */
@Service
public class AuditLog {
    public static final String ENTRY_NOT_FOUND = "Audit entry not found";

    private final AuditLogRepository rows;
    private final AdminCommands commands;
    private final DataSource dataSource;

    AuditLog(AuditLogRepository rows, AdminCommands commands, DataSource dataSource) {
        this.rows = rows;
        this.commands = commands;
        this.dataSource = dataSource;
    }

    /** The page the query asks for. */
    public Mono<AuditPage> page(UUID workspaceId, AuditLogQuery query) {
        return Blocking.call(() -> rows.page(workspaceId, query));
    }

    /** One row of the workspace; 404 {@value #ENTRY_NOT_FOUND} for an unknown id and for another workspace's. */
    public Mono<AuditEntry> find(UUID workspaceId, UUID auditLogId) {
        return Blocking.call(() -> rows.find(workspaceId, auditLogId).orElseThrow(() -> ApiException.notFound(ENTRY_NOT_FOUND)));
    }

    /**
     * Erases the stored payload of one entry of the workspace (404 when the workspace has none such: the stream cannot
     * tell, it keeps no audit rows). The row keeps the payload's digests, so the log still verifies.
     *
     * @param reason why (optional), at most {@link EraseAuditPayload#MAX_REASON_LENGTH} characters
     */
    public Mono<Applied> erasePayload(AuthenticatedUser admin, UUID workspaceId, UUID auditLogId, String reason,
                                      String correlationId) {
        return Blocking.call(() -> {
            try (Connection connection = dataSource.getConnection()) {
                if (!new EvidenceLogReader(connection, workspaceId).holdsAuditRow(auditLogId)) {
                    throw ApiException.notFound(ENTRY_NOT_FOUND);
                }
                return auditLogId;
            }
        }).flatMap(id -> commands.send(correlationId, admin, workspaceId, new EraseAuditPayload(id.toString(), reason)));
    }
}
