package io.agentgateway.console.approvals;

import static io.agentgateway.console.web.ConsolePageClient.WORKSPACE;
import static io.agentgateway.console.web.ConsolePageClient.form;
import static io.agentgateway.console.web.ConsolePageClient.html;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.approvals.ApprovalItem;
import io.agentgateway.adminapi.approvals.Approvals;
import io.agentgateway.adminapi.audit.AuditLog;
import io.agentgateway.adminapi.audit.AuditLogQuery;
import io.agentgateway.adminapi.audit.AuditPage;
import io.agentgateway.console.ConsoleConfiguration;
import io.agentgateway.console.web.ConsolePageClient;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.ReviewVerdict;
import io.agentgateway.schemas.Role;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;
import reactor.core.publisher.Mono;

/**
 * The inbox ({@link InboxHandler}) and one approval's page ({@link ApprovalPageHandler}) over the stubbed admin services
 * ({@link Approvals}, {@link AuditLog}) and the console's own stubbed read of pending approvals ({@link ApprovalQueries}).
 */
class ApprovalPagesTest {
    private static final UUID APPROVAL = UUID.fromString("1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f");
    private static final String PAGE = "/approvals/" + WORKSPACE + "/" + APPROVAL;

    private final ConsolePageClient console = new ConsolePageClient();
    private final ApprovalQueries queries = mock(ApprovalQueries.class);
    private final Approvals approvals = mock(Approvals.class);
    private final AuditLog auditLog = mock(AuditLog.class);
    private final WebTestClient browser = console.bind(c -> ConsoleConfiguration.inbox(new InboxHandler(c.requests(), c.pages(), queries))
            .and(ConsoleConfiguration.approvals(new ApprovalPageHandler(c.requests(), c.pages(), queries, approvals, auditLog))));

    ApprovalPagesTest() {
        when(queries.one(WORKSPACE, APPROVAL)).thenReturn(Optional.of(pending("high")));
        when(queries.claim(WORKSPACE, APPROVAL)).thenReturn(Optional.empty());
        when(approvals.find(WORKSPACE, APPROVAL)).thenReturn(Mono.just(item("pending")));
        when(auditLog.page(eq(WORKSPACE), any(AuditLogQuery.class))).thenReturn(Mono.just(new AuditPage(List.of(), null)));
    }

    @Test
    void theInboxListsWhatAwaitsAReview() {
        console.signedIn("reviewer-1", Role.REVIEWER);
        when(queries.inbox(eq(List.of(WORKSPACE)), anyInt())).thenReturn(new ApprovalQueries.Inbox(List.of(pending("high")), 1));

        Document page = html(browser.get().uri("/").exchange().expectStatus().isOk().expectBody(String.class).returnResult());

        assertThat(page.select("#inbox-count").text()).contains("1");
        assertThat(page.select("#inbox").text()).contains("delete_repository");
    }

    @Test
    void anApprovalPageShowsWhatWillRunAndItsTimeline() {
        console.signedIn("reviewer-1", Role.REVIEWER);

        Document page = html(browser.get().uri(PAGE).exchange().expectStatus().isOk().expectBody(String.class).returnResult());

        assertThat(page.select("#willrun").text()).isNotEmpty();
        assertThat(page.select("#timeline").text()).contains("Requested");
        assertThat(page.select("#approve-button")).hasSize(1);
    }

    @Test
    void anApprovalGoesBackToItsPageOnceTheReadModelShowsIt() {
        console.signedIn("reviewer-1", Role.REVIEWER);
        when(approvals.review(any(), eq(WORKSPACE), eq(APPROVAL), eq(ReviewVerdict.APPROVE), eq(""), anyString()))
                .thenReturn(Mono.just(new Approvals.Reviewed(APPROVAL.toString(), "approved")));
        when(approvals.find(WORKSPACE, APPROVAL)).thenReturn(Mono.just(item("approved")));

        browser.post().uri(PAGE + "/approve").body(BodyInserters.fromFormData(form())).exchange()
                .expectStatus().isSeeOther().expectHeader().location(PAGE + "?done=approved");
    }

    @Test
    void anEndedApprovalSaysWhyInTheConsolesWords() {
        console.signedIn("reviewer-1", Role.REVIEWER);
        when(approvals.review(any(), eq(WORKSPACE), eq(APPROVAL), eq(ReviewVerdict.REJECT), eq("no"), anyString()))
                .thenReturn(Mono.error(new ApiException(HttpStatus.CONFLICT, "Approval request is executed, not pending")));

        browser.post().uri(PAGE + "/reject").body(BodyInserters.fromFormData(form("reason", "no"))).exchange()
                .expectStatus().isEqualTo(HttpStatus.CONFLICT)
                .expectBody(String.class).consumeWith(r -> assertThat(html(r).select("main").text())
                        .contains("Approval request is executed, not pending: it can no longer be acted on."));
    }

    @Test
    void aViewerMayNotDecideAndARejectionNeedsAReason() {
        console.signedIn("viewer-1", Role.VIEWER);
        browser.post().uri(PAGE + "/approve").body(BodyInserters.fromFormData(form())).exchange().expectStatus().isForbidden();
        console.signedIn("reviewer-1", Role.REVIEWER);
        browser.post().uri(PAGE + "/reject").body(BodyInserters.fromFormData(form("reason", " "))).exchange()
                .expectStatus().isBadRequest();
        verify(approvals, never()).review(any(), any(), any(), any(), any(), any());
    }

    @Test
    void anotherWorkspacesApprovalIsNotFound() {
        console.signedIn("reviewer-1", Role.REVIEWER);
        browser.get().uri("/approvals/" + UUID.randomUUID() + "/" + APPROVAL).exchange().expectStatus().isNotFound();
    }

    private static PendingApproval pending(String risk) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        return new PendingApproval(APPROVAL, WORKSPACE, "Acme", "pending", "mcp", "delete_repository", risk, "server_classified",
                risk, false, "agent-1", "Build bot", null, null, "needs approval", null, "mcp", "c-1", now, now.plusSeconds(3600),
                new HeldCall(null, null, "digest", "mcp_tool_call"), null, false);
    }

    private static ApprovalItem item(String status) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        return new ApprovalItem(APPROVAL.toString(), status, "mcp", "delete_repository", "high", "agent-1",
                UUID.randomUUID().toString(), "c-1", "mcp_tool_call", now, now.plusSeconds(3600),
                "approved".equals(status) ? now : null, "approved".equals(status) ? "reviewer-1" : null, null, null, null, null,
                null, "digest", null);
    }
}
