package io.agentgateway.adminapi.policies;

import static io.agentgateway.adminapi.shared.HandlerTestClient.WORKSPACE;
import static io.agentgateway.adminapi.shared.HandlerTestClient.bearer;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.AdminRoutes;
import io.agentgateway.adminapi.shared.AdminRefusals;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.httpedge.web.ApiException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** {@code /admin/v1/workspaces/{id}/defaults}: {@link DefaultsAdminHandler} over a stubbed {@link WorkspaceDefaults}. */
class DefaultsAdminHandlerTest {
    private static final String DEFAULTS = "/admin/v1/workspaces/" + WORKSPACE + "/defaults";

    private final WorkspaceDefaults defaults = mock(WorkspaceDefaults.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.policies(
            new PolicyAdminHandler(e.access(), e.bodies(), mock(PolicyAdmin.class)),
            new DefaultsAdminHandler(e.access(), e.bodies(), defaults),
            new PolicyTestHandler(e.access(), e.bodies(), mock(PolicyTests.class))));

    @Test
    void theDefaultsAreShownAsTheServiceAnswersThem() {
        Map<String, String> decisions = new LinkedHashMap<>();
        decisions.put("low", "allow");
        decisions.put("critical", "block");
        when(defaults.view(WORKSPACE)).thenReturn(Mono.just(new WorkspaceDefaults.View(decisions, null, "UTC")));

        http.get().uri(DEFAULTS).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.ok").isEqualTo(true)
                .jsonPath("$.decisions.critical").isEqualTo("block")
                .jsonPath("$.approvalTtl").doesNotExist()
                .jsonPath("$.timeZone").isEqualTo("UTC");
    }

    @Test
    void aWorkspaceTheReadModelDoesNotHaveIs404() {
        when(defaults.view(WORKSPACE)).thenReturn(Mono.error(AdminRefusals.workspaceNotFound()));

        http.get().uri(DEFAULTS).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.error").isEqualTo("Workspace not found");
    }

    @Test
    void aPutAnswersOkOnceTheServiceApplied() {
        when(defaults.set(any(), eq(WORKSPACE), any(ObjectNode.class), anyString())).thenReturn(Mono.just(new Applied(2L)));

        http.put().uri(DEFAULTS).header("Authorization", bearer("member-1")).bodyValue("{\"approvalTtl\":\"PT1H\"}").exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.ok").isEqualTo(true);
    }

    @Test
    void aPutTheServiceRefusesIsItsError() {
        when(defaults.set(any(), eq(WORKSPACE), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(ApiException.badField("timeZone", "timeZone must be an IANA time zone id such as Europe/Berlin, or UTC")));

        http.put().uri(DEFAULTS).header("Authorization", bearer("owner-1")).bodyValue("{\"timeZone\":\"Mars/Olympus\"}").exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.error").isEqualTo("timeZone must be an IANA time zone id such as Europe/Berlin, or UTC");
    }

    @Test
    void aBodyThatIsNoObjectIs400BeforeTheService() {
        http.put().uri(DEFAULTS).header("Authorization", bearer("owner-1")).bodyValue("[1]").exchange()
                .expectStatus().isBadRequest();
    }
}
