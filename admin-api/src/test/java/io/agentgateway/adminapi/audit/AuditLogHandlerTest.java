package io.agentgateway.adminapi.audit;

import static io.agentgateway.adminapi.shared.HandlerTestClient.WORKSPACE;
import static io.agentgateway.adminapi.shared.HandlerTestClient.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.AdminRoutes;
import io.agentgateway.adminapi.export.AuditExportFilter;
import io.agentgateway.adminapi.export.AuditExportFormat;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.schemas.Decision;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code /admin/v1/workspaces/{id}/audit-log}, its export and {@code /changes}: {@link AuditLogHandler},
 * {@link AuditExportHandler} and {@link ChangeHistoryHandler} over stubbed {@link AuditLog}, {@link AuditExports} and
 * {@link ChangeHistory}.
 */
class AuditLogHandlerTest {
    private static final String AUDIT = "/admin/v1/workspaces/" + WORKSPACE + "/audit-log";

    private final AuditLog auditLog = mock(AuditLog.class);
    private final AuditExports exports = mock(AuditExports.class);
    private final ChangeHistory history = mock(ChangeHistory.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.auditLog(new AuditLogHandler(e.access(), auditLog),
            new AuditExportHandler(e.access(), exports), new ChangeHistoryHandler(e.access(), history)));

    @Test
    void aPageCarriesItsRowsAndTheNextCursor() {
        AuditCursor next = new AuditCursor(Instant.parse("2030-01-01T00:00:00Z"), UUID.randomUUID());
        when(auditLog.page(eq(WORKSPACE), any(AuditLogQuery.class))).thenReturn(Mono.just(new AuditPage(List.of(entry()), next)));

        http.get().uri(AUDIT + "?decision=block&limit=1").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.ok").isEqualTo(true)
                .jsonPath("$.items[0].decision").isEqualTo("block")
                .jsonPath("$.nextCursor").isEqualTo(next.encode());

        ArgumentCaptor<AuditLogQuery> query = ArgumentCaptor.forClass(AuditLogQuery.class);
        verify(auditLog).page(eq(WORKSPACE), query.capture());
        assertThat(query.getValue().decision()).isEqualTo(Decision.BLOCK);
        assertThat(query.getValue().limit()).isEqualTo(1);
    }

    @Test
    void aBadFilterIs400BeforeTheRoleOrTheRead() {
        http.get().uri(AUDIT + "?cursor=garbage").header("Authorization", bearer("stranger")).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.error").isEqualTo("cursor is invalid");
        http.get().uri(AUDIT + "?risk=extreme").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isBadRequest();
        verify(auditLog, never()).page(any(), any());
    }

    @Test
    void theExportNeedsARangeAndStreamsWhatTheServiceWrites() {
        http.get().uri(AUDIT + "/export?to=2030-01-02T00:00:00Z").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.error").isEqualTo("from is required (an ISO-8601 timestamp)");

        when(exports.download(any(), any(AuditExportFilter.class), eq(AuditExportFormat.CSV)))
                .thenReturn(ServerResponse.ok().bodyValue("id,decision\n"));
        http.get().uri(AUDIT + "/export?from=2030-01-01T00:00:00Z&to=2030-01-02T00:00:00Z&format=csv")
                .header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk().expectBody(String.class).isEqualTo("id,decision\n");
        http.get().uri(AUDIT + "/export?from=2030-01-01T00:00:00Z&to=2030-01-02T00:00:00Z")
                .header("Authorization", bearer("member-1")).exchange().expectStatus().isForbidden();
    }

    @Test
    void theChangesAreFilteredByKnownAreasOnly() {
        when(history.recent(eq(WORKSPACE), eq(Set.of("policy")), anyInt())).thenReturn(Mono.just(List.of(new ChangeHistory.Change(
                Instant.parse("2030-01-01T00:00:00Z"), "policy", "block deletes", "created", "owner-1", "c-1"))));

        http.get().uri("/admin/v1/workspaces/" + WORKSPACE + "/changes?area=policy").header("Authorization", bearer("owner-1"))
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.items[0].subject").isEqualTo("block deletes");
        http.get().uri("/admin/v1/workspaces/" + WORKSPACE + "/changes?area=weather").header("Authorization", bearer("owner-1"))
                .exchange().expectStatus().isBadRequest();
        verify(history, never()).recent(any(), eq(Set.of("weather")), anyInt());
    }

    private static AuditEntry entry() {
        return new AuditEntry(UUID.randomUUID().toString(), Instant.parse("2030-01-01T00:00:01Z"), "action_evaluated", "code_host",
                "repos.delete", "high", "high", "server", false, "block", "blocked by policy", null, null, null, "agent-1", null,
                null, null, null, "evaluate", null, UUID.randomUUID().toString(), "cmd-1", null, false, null, false, null, null);
    }
}
