package io.agentgateway.adminapi.killswitch;

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
import io.agentgateway.adminapi.shared.AdminRefusals;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Tool;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;

/** {@code POST /functions/v1/kill-switch} and its state: {@link KillSwitchHandler} over a stubbed {@link KillSwitch}. */
class KillSwitchHandlerTest {
    private static final String SWITCH = "/functions/v1/kill-switch";

    private final KillSwitch killSwitch = mock(KillSwitch.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.killSwitch(
            new KillSwitchHandler(e.users(), e.access(), e.bodies(), killSwitch)));

    @Test
    void okOnlyOnceTheStreamApplied() {
        when(killSwitch.apply(any(), eq(WORKSPACE), eq(KillSwitchAction.PAUSE_TOOL), eq(Tool.CODE_HOST), eq("incident 42"),
                anyString())).thenReturn(Mono.just(new Applied(12L)));

        http.post().uri(SWITCH).header("Authorization", bearer("owner-1"))
                .bodyValue("{\"workspaceId\":\"" + WORKSPACE + "\",\"action\":\"pause_tool\",\"tool\":\"code_host\",\"reason\":\"incident 42\"}")
                .exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.ok").isEqualTo(true);
    }

    @Test
    void theStreamsRefusalOfTheRoleIsTheApisOneText() {
        when(killSwitch.apply(any(), eq(WORKSPACE), eq(KillSwitchAction.ENABLE), isNull(), isNull(), anyString()))
                .thenReturn(Mono.error(ApiException.forbidden("member-1 is not admin of the workspace")));

        http.post().uri(SWITCH).header("Authorization", bearer("member-1"))
                .bodyValue("{\"workspaceId\":\"" + WORKSPACE + "\",\"action\":\"enable\"}").exchange()
                .expectStatus().isForbidden().expectBody().jsonPath("$.error").isEqualTo(HandlerTestClient.ADMIN_REQUIRED);
    }

    @Test
    void aBadBodyIs400BeforeTheStream() {
        http.post().uri(SWITCH).header("Authorization", bearer("owner-1"))
                .bodyValue("{\"workspaceId\":\"" + WORKSPACE + "\",\"action\":\"explode\"}").exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.error").isEqualTo("Unsupported action");
        http.post().uri(SWITCH).header("Authorization", bearer("owner-1"))
                .bodyValue("{\"workspaceId\":\"" + WORKSPACE + "\",\"action\":\"pause_tool\"}").exchange()
                .expectStatus().isBadRequest();
        http.post().uri(SWITCH).bodyValue("{}").exchange().expectStatus().isUnauthorized();
        verify(killSwitch, never()).apply(any(), any(), any(), any(), any(), any());
    }

    @Test
    void theStateIsShownToAdmins() {
        when(killSwitch.state(WORKSPACE)).thenReturn(Mono.just(new KillSwitch.State(true, List.of("code_host"))));
        http.get().uri("/admin/v1/workspaces/" + WORKSPACE + "/kill-switch").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.killSwitchEnabled").isEqualTo(true).jsonPath("$.pausedTools[0]").isEqualTo("code_host");

        when(killSwitch.state(WORKSPACE)).thenReturn(Mono.error(AdminRefusals.workspaceNotFound()));
        http.get().uri("/admin/v1/workspaces/" + WORKSPACE + "/kill-switch").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isNotFound();
    }
}
