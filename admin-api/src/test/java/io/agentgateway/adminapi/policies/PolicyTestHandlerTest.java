package io.agentgateway.adminapi.policies;

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
import io.agentgateway.adminapi.shared.AdminRefusals;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.IngressJson;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** {@code POST /admin/v1/workspaces/{id}/policy-tests}: {@link PolicyTestHandler} over a stubbed {@link PolicyTests}. */
class PolicyTestHandlerTest {
    private static final String TESTS = "/admin/v1/workspaces/" + WORKSPACE + "/policy-tests";
    private static final String BODY = "{\"policies\":[],\"action\":{\"tool\":\"code_host\",\"action\":\"repos.delete\",\"riskLevel\":\"high\"}}";

    private final PolicyTests tests = mock(PolicyTests.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.policies(
            new PolicyAdminHandler(e.access(), e.bodies(), mock(PolicyAdmin.class)),
            new DefaultsAdminHandler(e.access(), e.bodies(), mock(WorkspaceDefaults.class)),
            new PolicyTestHandler(e.access(), e.bodies(), tests)));

    @Test
    void theServicesAnswerIsTheBody() {
        ObjectNode answer = IngressJson.RESPONSES.createObjectNode().put("ok", true).put("decision", "require_approval")
                .put("inputs", "sample");
        when(tests.test(eq(WORKSPACE), any(ObjectNode.class), anyString())).thenReturn(Mono.just(answer));

        http.post().uri(TESTS).header("Authorization", bearer("owner-1")).bodyValue(BODY).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.decision").isEqualTo("require_approval").jsonPath("$.inputs").isEqualTo("sample");
    }

    @Test
    void theEventLogUnreadableIs503AndAnUnknownWorkspace404() {
        when(tests.test(eq(WORKSPACE), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(new ApiException(HttpStatus.SERVICE_UNAVAILABLE, AdminRefusals.EVENT_LOG_UNAVAILABLE)));
        http.post().uri(TESTS).header("Authorization", bearer("owner-1")).bodyValue(BODY).exchange()
                .expectStatus().isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
                .expectBody().jsonPath("$.error").isEqualTo("Event log unavailable");

        when(tests.test(eq(WORKSPACE), any(ObjectNode.class), anyString())).thenReturn(Mono.error(AdminRefusals.workspaceNotFound()));
        http.post().uri(TESTS).header("Authorization", bearer("owner-1")).bodyValue(BODY).exchange()
                .expectStatus().isNotFound();
    }

    @Test
    void onlyAnAdminOrOwnerMayTest() {
        http.post().uri(TESTS).header("Authorization", bearer("reviewer-1")).bodyValue(BODY).exchange()
                .expectStatus().isForbidden();
        verify(tests, never()).test(any(), any(), any());
    }
}
