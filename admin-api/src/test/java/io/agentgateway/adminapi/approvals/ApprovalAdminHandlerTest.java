package io.agentgateway.adminapi.approvals;

import static io.agentgateway.adminapi.shared.HandlerTestClient.WORKSPACE;
import static io.agentgateway.adminapi.shared.HandlerTestClient.bearer;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.AdminRoutes;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.ReviewVerdict;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;

/** {@code /admin/v1/workspaces/{id}/approvals}: {@link ApprovalAdminHandler} over a stubbed {@link Approvals}. */
class ApprovalAdminHandlerTest {
    private static final String APPROVALS = "/admin/v1/workspaces/" + WORKSPACE + "/approvals";
    private static final UUID APPROVAL = UUID.fromString("0b9a9c1e-0b3e-4d8e-9f0a-2c1d3e4f5a6b");

    private final Approvals approvals = mock(Approvals.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.approvals(new ApprovalAdminHandler(e.access(), approvals, e.bodies())));

    @Test
    void aReviewAnswersTheStatusTheStreamMovedItTo() {
        when(approvals.review(any(), eq(WORKSPACE), eq(APPROVAL), eq(ReviewVerdict.REJECT), eq("too risky"), anyString()))
                .thenReturn(Mono.just(new Approvals.Reviewed(APPROVAL.toString(), "rejected")));

        http.post().uri(APPROVALS + "/" + APPROVAL + "/reject").header("Authorization", bearer("reviewer-1"))
                .bodyValue("{\"reason\":\"too risky\"}").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.ok").isEqualTo(true).jsonPath("$.id").isEqualTo(APPROVAL.toString())
                .jsonPath("$.status").isEqualTo("rejected");
    }

    @Test
    void anEndedApprovalIs409WithWhyAndAnUnknownOne404() {
        when(approvals.review(any(), eq(WORKSPACE), eq(APPROVAL), eq(ReviewVerdict.APPROVE), isNull(), anyString()))
                .thenReturn(Mono.error(new ApiException(HttpStatus.CONFLICT, "Approval request expired at 2030-01-01T00:00:00Z")));
        http.post().uri(APPROVALS + "/" + APPROVAL + "/approve").header("Authorization", bearer("reviewer-1")).exchange()
                .expectStatus().isEqualTo(HttpStatus.CONFLICT)
                .expectBody().jsonPath("$.error").isEqualTo("Approval request expired at 2030-01-01T00:00:00Z");

        UUID unknown = UUID.randomUUID();
        when(approvals.review(any(), eq(WORKSPACE), eq(unknown), any(), any(), anyString()))
                .thenReturn(Mono.error(ApiException.notFound(Approvals.NOT_FOUND)));
        http.post().uri(APPROVALS + "/" + unknown + "/approve").header("Authorization", bearer("reviewer-1")).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.error").isEqualTo("Approval request not found");
    }

    @Test
    void anOverlongOrUnknownReviewFieldIs400BeforeTheStream() {
        http.post().uri(APPROVALS + "/" + APPROVAL + "/reject").header("Authorization", bearer("reviewer-1"))
                .bodyValue("{\"reason\":\"" + "x".repeat(2001) + "\"}").exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.error").isEqualTo("reason must be a string of at most 2000 characters");
        http.post().uri(APPROVALS + "/" + APPROVAL + "/reject").header("Authorization", bearer("reviewer-1"))
                .bodyValue("{\"why\":\"typo\"}").exchange().expectStatus().isBadRequest();
        verify(approvals, never()).review(any(), any(), any(), any(), any(), any());
    }

    @Test
    void theListAndOneApprovalAreForAdminsOnly() {
        ApprovalItem item = new ApprovalItem(APPROVAL.toString(), "pending", "mcp", "delete_repo", "high", "agent-1",
                UUID.randomUUID().toString(), UUID.randomUUID().toString(), "mcp_tool_call", Instant.parse("2030-01-01T00:00:00Z"),
                Instant.parse("2030-01-02T00:00:00Z"), null, null, null, null, null, null, null, "digest", null);
        when(approvals.list(eq(WORKSPACE), any(ApprovalListQuery.class))).thenReturn(Mono.just(List.of(item)));
        when(approvals.find(WORKSPACE, APPROVAL)).thenReturn(Mono.just(item));

        http.get().uri(APPROVALS + "?status=pending").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.items[0].id").isEqualTo(APPROVAL.toString());
        http.get().uri(APPROVALS + "/" + APPROVAL).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.ok").isEqualTo(true).jsonPath("$.callDigest").isEqualTo("digest");
        http.get().uri(APPROVALS + "/" + APPROVAL).header("Authorization", bearer("reviewer-1")).exchange()
                .expectStatus().isForbidden();
    }

    @Test
    void aBadStatusFilterIs400BeforeTheRoleIsLookedUp() {
        http.get().uri(APPROVALS + "?status=maybe").header("Authorization", bearer("stranger")).exchange()
                .expectStatus().isBadRequest();
        verify(edge.roles(), never()).administers(any(), any());
    }
}
