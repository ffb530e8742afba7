package io.agentgateway.console.audit;

import static io.agentgateway.console.web.ConsolePageClient.WORKSPACE;
import static io.agentgateway.console.web.ConsolePageClient.html;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.audit.AuditEntry;
import io.agentgateway.adminapi.audit.AuditExports;
import io.agentgateway.adminapi.audit.AuditLog;
import io.agentgateway.adminapi.audit.AuditLogQuery;
import io.agentgateway.adminapi.audit.AuditPage;
import io.agentgateway.adminapi.export.AuditExportFilter;
import io.agentgateway.adminapi.export.AuditExportFormat;
import io.agentgateway.console.ConsoleConfiguration;
import io.agentgateway.console.web.ConsolePageClient;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Role;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** The audit explorer and one row ({@link AuditExplorerHandler}, {@link AuditRowHandler}) over stubbed {@link AuditLog} and {@link AuditExports}. */
class AuditPagesTest {
    private static final UUID ROW = UUID.fromString("2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d");

    private final ConsolePageClient console = new ConsolePageClient();
    private final AuditLog auditLog = mock(AuditLog.class);
    private final AuditExports exports = mock(AuditExports.class);
    private final WebTestClient browser = console.bind(c -> ConsoleConfiguration.audit(
                    new AuditExplorerHandler(c.requests(), c.pages(), auditLog, exports))
            .and(ConsoleConfiguration.auditRow(new AuditRowHandler(c.requests(), c.pages(), auditLog))));

    @Test
    void theExplorerShowsTheFilteredRowsWithTheirMarkupAsText() {
        console.signedIn("viewer-1", Role.VIEWER);
        when(auditLog.page(eq(WORKSPACE), any(AuditLogQuery.class))).thenReturn(Mono.just(new AuditPage(List.of(entry()), null)));

        Document page = html(browser.get().uri("/audit?workspace=" + WORKSPACE + "&decision=block").exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult());

        assertThat(page.select("#audit-rows").text()).contains("<script>alert(1)</script>");
        assertThat(page.select("#audit-rows script")).isEmpty();
        assertThat(page.select("#f-decision option[selected]").val()).isEqualTo("block");
    }

    @Test
    void aBadFilterIsTheApisTextAndNoRead() {
        console.signedIn("viewer-1", Role.VIEWER);
        browser.get().uri("/audit?workspace=" + WORKSPACE + "&risk=extreme").exchange().expectStatus().isBadRequest();
        verify(auditLog, never()).page(any(), any());
    }

    @Test
    void theExportIsTheAdminApisDownloadOfTheLast30DaysByDefault() {
        console.signedIn("viewer-1", Role.VIEWER);
        when(exports.download(any(), any(AuditExportFilter.class), eq(AuditExportFormat.CSV)))
                .thenReturn(ServerResponse.ok().bodyValue("id\n"));

        browser.get().uri("/audit/export?workspace=" + WORKSPACE + "&format=csv").exchange()
                .expectStatus().isOk().expectBody(String.class).isEqualTo("id\n");
    }

    @Test
    void oneRowAndAnUnknownOneInTheConsolesWords() {
        console.signedIn("viewer-1", Role.VIEWER);
        when(auditLog.find(WORKSPACE, ROW)).thenReturn(Mono.just(entry()));
        Document page = html(browser.get().uri("/audit/" + WORKSPACE + "/" + ROW).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult());
        assertThat(page.select("#audit-row").text()).contains(ROW.toString(), "agent-1", "<script>alert(1)</script>");
        assertThat(page.select("#audit-row script")).isEmpty();

        UUID unknown = UUID.randomUUID();
        when(auditLog.find(WORKSPACE, unknown)).thenReturn(Mono.error(ApiException.notFound(AuditLog.ENTRY_NOT_FOUND)));
        browser.get().uri("/audit/" + WORKSPACE + "/" + unknown).exchange()
                .expectStatus().isNotFound()
                .expectBody(String.class).consumeWith(r -> assertThat(r.getResponseBody()).contains("There is nothing here"));
    }

    private static AuditEntry entry() {
        return new AuditEntry(ROW.toString(), Instant.parse("2030-01-01T00:00:00Z"), "action_evaluated", "code_host",
                "repos.delete", "high", "high", "server_classified", false, "block", "<script>alert(1)</script>", null, null, null,
                "agent-1", null, null, null, null, "evaluate", null, UUID.randomUUID().toString(), UUID.randomUUID().toString(), null, false,
                null, false, null, null);
    }
}
