package io.agentgateway.adminapi.audit;

import static io.agentgateway.adminapi.shared.HandlerTestClient.WORKSPACE;
import static io.agentgateway.adminapi.shared.HandlerTestClient.bearer;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.AdminRoutes;
import io.agentgateway.adminapi.evidence.EvidenceKeyProperties;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.httpedge.web.ApiException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;

/**
 * The audit log's evidence endpoints and a payload's erasure ({@link EvidenceAdminHandler}, {@link EvidenceExportHandler},
 * {@link AuditPayloadErasureHandler}): who may call them and the inputs refused before any read of the log (the
 * DataSource, the module's boundary to the read model, is never touched); the erasure over a stubbed {@link AuditLog}.
 * The proofs themselves are tested against real logs in the launcher ({@code EvidenceEndToEndTest}) and in module
 * {@code evidence}.
 */
class EvidenceHandlersTest {
    private static final String WS = "/admin/v1/workspaces/" + WORKSPACE;

    private final DataSource dataSource = mock(DataSource.class);
    private final AuditLog auditLog = mock(AuditLog.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> {
        EvidenceAdminHandler evidence = new EvidenceAdminHandler(e.access(), dataSource, e.bodies(),
                new EvidenceKeyProperties(List.of(), null, List.of(), null));
        StreamedExports exports = new StreamedExports(dataSource, new AuditExportProperties(1, Duration.ofMinutes(1)));
        return AdminRoutes.evidence(evidence, new EvidenceExportHandler(e.access(), exports, evidence),
                new AuditPayloadErasureHandler(e.access(), e.bodies(), auditLog));
    });

    @Test
    void sizesAndRangesThatAreNoneAre400BeforeAnyRead() {
        for (String path : List.of("/evidence/checkpoints/-1", "/evidence/checkpoints/01", "/evidence/consistency-proof",
                "/evidence/consistency-proof?from=5&to=3", "/evidence/witness/add-checkpoint?old=x",
                "/evidence/export?from=2030-01-01T00:00:00Z", "/evidence/export?consistencyFrom=-2",
                "/audit-log/not-a-uuid/inclusion-proof", "/audit-log/" + UUID.randomUUID() + "/inclusion-proof?treeSize=abc")) {
            http.get().uri(WS + path).header("Authorization", bearer("owner-1")).exchange()
                    .expectStatus().isBadRequest().expectBody().jsonPath("$.ok").isEqualTo(false);
        }
        http.post().uri(WS + "/evidence/verify").header("Authorization", bearer("owner-1"))
                .bodyValue("{\"previousCheckpoint\":\"not a note\"}").exchange().expectStatus().isBadRequest();
        verifyNoInteractions(dataSource);
    }

    @Test
    void theEvidenceIsForAdminsAndOwnersOnly() {
        http.get().uri(WS + "/evidence/public-keys").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.keys").isArray();
        http.get().uri(WS + "/evidence/public-keys").header("Authorization", bearer("member-1")).exchange()
                .expectStatus().isForbidden();
        http.get().uri(WS + "/evidence/checkpoints/latest").exchange().expectStatus().isUnauthorized();
        verifyNoInteractions(dataSource);
    }

    @Test
    void anErasureIsTheServicesAnswerForAnAdminOnly() {
        UUID entry = UUID.randomUUID();
        when(auditLog.erasePayload(any(), eq(WORKSPACE), eq(entry), eq("GDPR request"), anyString()))
                .thenReturn(Mono.just(new Applied(9L)));
        http.post().uri(WS + "/audit-log/" + entry + "/erase-payload").header("Authorization", bearer("owner-1"))
                .bodyValue("{\"reason\":\"GDPR request\"}").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.auditLogId").isEqualTo(entry.toString()).jsonPath("$.erased").isEqualTo(true);

        UUID unknown = UUID.randomUUID();
        when(auditLog.erasePayload(any(), eq(WORKSPACE), eq(unknown), isNull(), anyString()))
                .thenReturn(Mono.error(ApiException.notFound(AuditLog.ENTRY_NOT_FOUND)));
        http.post().uri(WS + "/audit-log/" + unknown + "/erase-payload").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.error").isEqualTo("Audit entry not found");

        http.post().uri(WS + "/audit-log/" + entry + "/erase-payload").header("Authorization", bearer("reviewer-1")).exchange()
                .expectStatus().isForbidden();
    }
}
