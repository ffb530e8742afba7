package io.agentgateway.adminapi.workspaces;

import static io.agentgateway.adminapi.shared.HandlerTestClient.OPERATOR;
import static io.agentgateway.adminapi.shared.HandlerTestClient.bearer;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.AdminRoutes;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.httpedge.web.ApiException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** {@code /admin/v1/workspaces}: {@link WorkspaceAdminHandler} over a stubbed {@link Workspaces}, for operators only. */
class WorkspaceAdminHandlerTest {
    private final Workspaces workspaces = mock(Workspaces.class);
    private final HandlerTestClient edge = new HandlerTestClient();
    private final WebTestClient http = edge.bind(e -> AdminRoutes.workspaces(
            new WorkspaceAdminHandler(e.operators(), e.bodies(), workspaces)));

    @Test
    void anOperatorCreatesAWorkspaceAndGetsItsId() {
        UUID created = UUID.randomUUID();
        when(workspaces.create(any(), any(ObjectNode.class), anyString())).thenReturn(Mono.just(created));

        http.post().uri(AdminRoutes.WORKSPACES).header("Authorization", bearer(OPERATOR)).bodyValue("{\"name\":\"acme\"}").exchange()
                .expectStatus().isCreated()
                .expectBody().jsonPath("$.workspaceId").isEqualTo(created.toString());
    }

    @Test
    void anyoneElseIs403BeforeTheService() {
        http.post().uri(AdminRoutes.WORKSPACES).header("Authorization", bearer("owner-1")).bodyValue("{\"name\":\"acme\"}").exchange()
                .expectStatus().isForbidden().expectBody().jsonPath("$.error").isEqualTo("Operator role required");
        http.get().uri(AdminRoutes.WORKSPACES).exchange().expectStatus().isUnauthorized();
        verify(workspaces, never()).create(any(), any(), any());
        verify(workspaces, never()).list(any(), anyInt());
    }

    @Test
    void theListIsBoundedAndABadBodyIsTheServicesField400() {
        when(workspaces.list(any(), eq(2))).thenReturn(Mono.just(List.of(new Workspaces.WorkspaceSummary(
                UUID.randomUUID().toString(), "acme", Instant.parse("2030-01-01T00:00:00Z"), false, List.of("owner-1")))));
        http.get().uri(AdminRoutes.WORKSPACES + "?limit=2").header("Authorization", bearer(OPERATOR)).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.items[0].name").isEqualTo("acme");
        http.get().uri(AdminRoutes.WORKSPACES + "?limit=501").header("Authorization", bearer(OPERATOR)).exchange()
                .expectStatus().isBadRequest();

        when(workspaces.create(any(), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(ApiException.badField("ownerUserId", "ownerEmail needs ownerUserId")));
        http.post().uri(AdminRoutes.WORKSPACES).header("Authorization", bearer(OPERATOR))
                .bodyValue("{\"name\":\"acme\",\"ownerEmail\":\"o@example.test\"}").exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.error").isEqualTo("ownerEmail needs ownerUserId");
    }
}
