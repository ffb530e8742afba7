package io.agentgateway.adminapi.policies;

import static io.agentgateway.adminapi.shared.HandlerTestClient.WORKSPACE;
import static io.agentgateway.adminapi.shared.HandlerTestClient.bearer;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.AdminRoutes;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** {@code /admin/v1/workspaces/{id}/policies}: {@link PolicyAdminHandler} over a stubbed {@link PolicyAdmin}. */
class PolicyAdminHandlerTest {
    private static final String POLICIES = "/admin/v1/workspaces/" + WORKSPACE + "/policies";
    private static final String BODY = "{\"name\":\"block deletes\",\"priority\":10,\"decision\":\"block\"}";

    private final PolicyAdmin policies = mock(PolicyAdmin.class);
    private final PolicyTests tests = mock(PolicyTests.class);
    private final WorkspaceDefaults defaults = mock(WorkspaceDefaults.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.policies(new PolicyAdminHandler(e.access(), e.bodies(), policies),
            new DefaultsAdminHandler(e.access(), e.bodies(), defaults), new PolicyTestHandler(e.access(), e.bodies(), tests)));

    @Test
    void anAdminListsThePoliciesAsTheServiceAnswersThem() {
        when(policies.list(WORKSPACE)).thenReturn(Mono.just(List.of(new PolicyAdmin.PolicyView(
                "7d1c2f9e-2b5b-4a0e-8f4e-0c8d5f1a2b3c", "block deletes", 10, true, "block", null, null, null,
                Instant.parse("2030-01-01T00:00:00Z")))));

        http.get().uri(POLICIES).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.ok").isEqualTo(true)
                .jsonPath("$.items[0].name").isEqualTo("block deletes")
                .jsonPath("$.items[0].priority").isEqualTo(10)
                .jsonPath("$.items[0].updatedAt").isEqualTo("2030-01-01T00:00:00Z");
    }

    @Test
    void theListIsForAdminsAndOwnersOnly() {
        http.get().uri(POLICIES).header("Authorization", bearer("member-1")).exchange()
                .expectStatus().isForbidden()
                .expectBody().jsonPath("$.ok").isEqualTo(false).jsonPath("$.error").isEqualTo(HandlerTestClient.ADMIN_REQUIRED);
        http.get().uri(POLICIES).exchange().expectStatus().isUnauthorized();
        verify(policies, never()).list(any());
    }

    @Test
    void aCreateIsCheckedThenSavedAndAnswers201WithItsNewId() {
        Policy checked = new Policy(UUID.randomUUID().toString(), "block deletes", 10, true, Decision.BLOCK, PolicyMatch.any(),
                null, null);
        when(policies.check(any(ObjectNode.class), any(UUID.class), eq(false))).thenReturn(Mono.just(checked));
        when(policies.save(any(AuthenticatedUser.class), eq(WORKSPACE), eq(checked), anyString()))
                .thenReturn(Mono.just(new Applied(7L)));

        http.post().uri(POLICIES).header("Authorization", bearer("owner-1")).bodyValue(BODY).exchange()
                .expectStatus().isCreated()
                .expectBody().jsonPath("$.ok").isEqualTo(true).jsonPath("$.policyId").isNotEmpty();
    }

    @Test
    void aBodyTheServiceRefusesIsItsFieldAddressed400AndNothingIsSaved() {
        when(policies.check(any(ObjectNode.class), any(UUID.class), anyBoolean()))
                .thenReturn(Mono.error(ApiException.badField("decision", "decision must be one of: allow, block, require_approval")));

        http.post().uri(POLICIES).header("Authorization", bearer("owner-1")).bodyValue(BODY).exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.error").isEqualTo("decision must be one of: allow, block, require_approval")
                .jsonPath("$.correlationId").isNotEmpty();
        verify(policies, never()).save(any(), any(), any(), any());
    }

    @Test
    void aReplaceNamesThePathsIdAndTheStreamsRefusalIsItsStatus() {
        UUID policyId = UUID.randomUUID();
        Policy checked = new Policy(policyId.toString(), "x", 1, true, Decision.ALLOW, PolicyMatch.any(), null, null);
        when(policies.check(any(ObjectNode.class), eq(policyId), eq(true))).thenReturn(Mono.just(checked));
        when(policies.save(any(), eq(WORKSPACE), eq(checked), anyString()))
                .thenReturn(Mono.error(new ApiException(HttpStatus.TOO_MANY_REQUESTS, "Workspace policy limit reached")));

        http.put().uri(POLICIES + "/" + policyId).header("Authorization", bearer("owner-1")).bodyValue(BODY).exchange()
                .expectStatus().isEqualTo(HttpStatus.TOO_MANY_REQUESTS)
                .expectBody().jsonPath("$.error").isEqualTo("Workspace policy limit reached");
    }

    @Test
    void aDeleteOfABadIdIs400BeforeTheService() {
        http.delete().uri(POLICIES + "/not-a-uuid").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isBadRequest();
        verify(policies, never()).delete(any(), any(), any(), any());

        UUID policyId = UUID.randomUUID();
        when(policies.delete(any(), eq(WORKSPACE), eq(policyId), anyString())).thenReturn(Mono.just(new Applied(3L)));
        http.delete().uri(POLICIES + "/" + policyId).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.ok").isEqualTo(true);
    }

    @Test
    void anUnsupportedMethodIs405WithAllow() {
        http.patch().uri(POLICIES).header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isEqualTo(HttpStatus.METHOD_NOT_ALLOWED)
                .expectHeader().valueMatches("Allow", "GET, ?POST");
    }
}
