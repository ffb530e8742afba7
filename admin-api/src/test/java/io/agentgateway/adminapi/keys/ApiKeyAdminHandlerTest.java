package io.agentgateway.adminapi.keys;

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
import io.agentgateway.schemas.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** {@code /admin/v1/workspaces/{id}/api-keys}: {@link ApiKeyAdminHandler} over a stubbed {@link ApiKeyAdmin}. */
class ApiKeyAdminHandlerTest {
    private static final String KEYS = "/admin/v1/workspaces/" + WORKSPACE + "/api-keys";

    private final ApiKeyAdmin keys = mock(ApiKeyAdmin.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.keys(new ApiKeyAdminHandler(e.access(), e.bodies(), keys)));

    @Test
    void anIssuedKeyIsShownOnceIn201AndNeverCached() {
        when(keys.issue(any(), eq(WORKSPACE), any(ObjectNode.class), anyString())).thenReturn(Mono.just(new ApiKeyAdmin.IssuedKey(
                "k-1", "agw_secret_key", "ci", Set.of(Scope.PROXY), null, null, null)));

        http.post().uri(KEYS).header("Authorization", bearer("owner-1")).bodyValue("{\"name\":\"ci\",\"scopes\":[\"proxy\"]}")
                .exchange()
                .expectStatus().isCreated()
                .expectHeader().valueEquals("Cache-Control", "no-store")
                .expectBody()
                .jsonPath("$.ok").isEqualTo(true)
                .jsonPath("$.keyId").isEqualTo("k-1")
                .jsonPath("$.key").isEqualTo("agw_secret_key")
                .jsonPath("$.scopes[0]").isEqualTo("proxy");
    }

    @Test
    void theListIsForAdminsAndCarriesNoKey() {
        when(keys.list(WORKSPACE)).thenReturn(Mono.just(List.of(new ApiKeyAdmin.ApiKeyView("k-1", "ci", List.of("proxy"), null,
                null, Instant.parse("2030-01-01T00:00:00Z"), null, null, null))));

        http.get().uri(KEYS).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.items[0].keyId").isEqualTo("k-1").jsonPath("$.items[0].key").doesNotExist();
        http.get().uri(KEYS).header("Authorization", bearer("member-1")).exchange().expectStatus().isForbidden();
    }

    @Test
    void aRevokeNamesTheKeyAndTheServicesRefusalIsItsStatus() {
        UUID keyId = UUID.randomUUID();
        when(keys.revoke(any(), eq(WORKSPACE), eq(keyId), anyString())).thenReturn(Mono.just(new Applied(4L)));
        http.delete().uri(KEYS + "/" + keyId).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.ok").isEqualTo(true);

        UUID unknown = UUID.randomUUID();
        when(keys.revoke(any(), eq(WORKSPACE), eq(unknown), anyString()))
                .thenReturn(Mono.error(ApiException.notFound("API key not found")));
        http.delete().uri(KEYS + "/" + unknown).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.error").isEqualTo("API key not found");
    }

    @Test
    void aKeyIdThatIsNoUuidIs400BeforeTheService() {
        http.delete().uri(KEYS + "/k-1").header("Authorization", bearer("owner-1")).exchange().expectStatus().isBadRequest();
        verify(keys, never()).revoke(any(), any(), any(), any());
    }
}
