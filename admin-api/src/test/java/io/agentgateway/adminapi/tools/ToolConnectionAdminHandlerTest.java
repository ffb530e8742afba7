package io.agentgateway.adminapi.tools;

import static io.agentgateway.adminapi.shared.HandlerTestClient.BASE_URL;
import static io.agentgateway.adminapi.shared.HandlerTestClient.WORKSPACE;
import static io.agentgateway.adminapi.shared.HandlerTestClient.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.AdminRoutes;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.adminapi.shared.AdminRefusals;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Tool;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** {@code /admin/v1/workspaces/{id}/tools}: {@link ToolConnectionAdminHandler} over a stubbed {@link ToolConnections}. */
class ToolConnectionAdminHandlerTest {
    private static final String TOOLS = "/admin/v1/workspaces/" + WORKSPACE + "/tools";
    private static final String SECRET = "0123456789abcdef0123456789abcdef";

    private final ToolConnections tools = mock(ToolConnections.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.tools(
            new ToolConnectionAdminHandler(e.access(), e.bodies(), tools, e.baseUrl())));

    @Test
    void theListIsEveryToolUnderTheGatewaysPublicBaseUrl() {
        when(tools.list(WORKSPACE, BASE_URL)).thenReturn(Mono.just(java.util.List.of(
                ToolSettingsView.notConnected(Tool.CODE_HOST, false, BASE_URL))));

        http.get().uri(TOOLS).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.items[0].tool").isEqualTo("code_host").jsonPath("$.items[0].connected").isEqualTo(false)
                .jsonPath("$.items[0].webhook.payloadUrl").value(url -> assertThat((String) url).startsWith(BASE_URL));
    }

    @Test
    void anUnknownToolIs400AndAWorkspaceTheReadModelLacks404() {
        http.get().uri(TOOLS + "/fax").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.error").value(text -> assertThat((String) text).startsWith("tool must be one of: "));
        verify(tools, never()).one(any(), any(), any());

        when(tools.list(WORKSPACE, BASE_URL)).thenReturn(Mono.error(AdminRefusals.workspaceNotFound()));
        http.get().uri(TOOLS).header("Authorization", bearer("owner-1")).exchange().expectStatus().isNotFound();
    }

    @Test
    void aPutAnswersWithTheToolOnceApplied() {
        when(tools.put(any(), eq(WORKSPACE), eq(Tool.CODE_HOST), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.just(new Applied(11L)));
        http.put().uri(TOOLS + "/code_host").header("Authorization", bearer("owner-1")).bodyValue("{\"config\":{\"repos\":[\"o/r\"]}}")
                .exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.ok").isEqualTo(true).jsonPath("$.tool").isEqualTo("code_host");

        when(tools.put(any(), eq(WORKSPACE), eq(Tool.ISSUE_TRACKER), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(ApiException.badField("config.repos", "config.repos is not a field of the issue_tracker tool")));
        http.put().uri(TOOLS + "/issue_tracker").header("Authorization", bearer("owner-1")).bodyValue("{\"config\":{\"repos\":[\"o/r\"]}}")
                .exchange().expectStatus().isBadRequest();
    }

    @Test
    void aRotatedSecretIsShownOnceAndNeverCachedNorPrinted() {
        when(tools.rotateWebhookSecret(any(), eq(WORKSPACE), eq(Tool.CODE_HOST), eq(BASE_URL), anyString()))
                .thenReturn(Mono.just(new ToolConnections.RotatedSecret("code_host", BASE_URL + "/functions/v1/webhook-code-host",
                        "application/json", SECRET)));

        http.post().uri(TOOLS + "/code_host/webhook-secret").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("Cache-Control", "no-store")
                .expectBody().jsonPath("$.webhook.secret").isEqualTo(SECRET).jsonPath("$.tool").isEqualTo("code_host");

        ToolConnectionAdminHandler.RotatedSecret answer = new ToolConnectionAdminHandler.RotatedSecret(true, "code_host",
                new ToolConnectionAdminHandler.WebhookSetupWithSecret("https://gw.example/functions/v1/webhook-code-host",
                        "application/json", SECRET));
        assertThat(answer.toString()).doesNotContain(SECRET).contains("secret=redacted");
    }
}
