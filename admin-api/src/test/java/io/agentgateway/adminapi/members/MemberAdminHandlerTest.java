package io.agentgateway.adminapi.members;

import static io.agentgateway.adminapi.shared.HandlerTestClient.WORKSPACE;
import static io.agentgateway.adminapi.shared.HandlerTestClient.bearer;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.AdminRoutes;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.httpedge.web.ApiException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** {@code /admin/v1/workspaces/{id}/members}: {@link MemberAdminHandler} over a stubbed {@link MemberAdmin}. */
class MemberAdminHandlerTest {
    private static final String MEMBERS = "/admin/v1/workspaces/" + WORKSPACE + "/members";

    private final MemberAdmin members = mock(MemberAdmin.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.members(new MemberAdminHandler(e.access(), e.bodies(), members)));

    @Test
    void membersAreListedForAdmins() {
        when(members.list(WORKSPACE)).thenReturn(Mono.just(List.of(
                new MemberAdmin.MemberView("owner-1", "owner@example.test", "owner", Instant.parse("2030-01-01T00:00:00Z")))));

        http.get().uri(MEMBERS).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.items[0].userId").isEqualTo("owner-1").jsonPath("$.items[0].role").isEqualTo("owner");
        http.get().uri(MEMBERS).header("Authorization", bearer("stranger")).exchange().expectStatus().isForbidden();
    }

    @Test
    void aMemberSetIsTheStreamsAnswer() {
        when(members.set(any(), eq(WORKSPACE), eq("dev-1"), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.just(new Applied(5L)));
        http.put().uri(MEMBERS + "/dev-1").header("Authorization", bearer("admin-1")).bodyValue("{\"role\":\"reviewer\"}")
                .exchange().expectStatus().isOk().expectBody().jsonPath("$.ok").isEqualTo(true);

        when(members.set(any(), eq(WORKSPACE), eq("owner-1"), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(new ApiException(HttpStatus.CONFLICT, "The last owner cannot be demoted")));
        http.put().uri(MEMBERS + "/owner-1").header("Authorization", bearer("owner-1")).bodyValue("{\"role\":\"admin\"}")
                .exchange().expectStatus().isEqualTo(HttpStatus.CONFLICT)
                .expectBody().jsonPath("$.error").isEqualTo("The last owner cannot be demoted");
    }

    @Test
    void anOverlongUserIdIs400AtItsFieldBeforeTheService() {
        http.put().uri(MEMBERS + "/" + "u".repeat(257)).header("Authorization", bearer("owner-1")).bodyValue("{\"role\":\"viewer\"}")
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.error").isEqualTo("userId must be a non-empty string of at most 256 characters");
        verify(members, never()).set(any(), any(), any(), any(), any());
    }

    @Test
    void aRemoveIsTheStreamsAnswer() {
        when(members.remove(any(), eq(WORKSPACE), eq("dev-1"), anyString())).thenReturn(Mono.just(new Applied(6L)));
        http.delete().uri(MEMBERS + "/dev-1").header("Authorization", bearer("owner-1")).exchange().expectStatus().isOk();
        http.delete().uri(MEMBERS + "/dev-1").exchange().expectStatus().isUnauthorized();
    }
}
