package io.agentgateway.console.admin;

import static io.agentgateway.console.web.ConsolePageClient.form;
import static io.agentgateway.console.web.ConsolePageClient.html;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.workspaces.Workspaces;
import io.agentgateway.console.ConsoleConfiguration;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Role;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** The operators' page ({@link WorkspacesPage}) over a stubbed {@link Workspaces}. */
class WorkspacesPageTest {
    private final AdminPageTests pages = new AdminPageTests();
    private final Workspaces workspaces = pages.console.workspaces();
    private final WebTestClient browser = pages.console.bind(c -> ConsoleConfiguration.workspaces(new WorkspacesPage(pages.admin, workspaces)));

    @Test
    void anOperatorSeesEveryWorkspaceAndCreatesOne() {
        pages.console.signedIn("operator-1", Role.OWNER).operator("operator-1");
        String id = UUID.randomUUID().toString();
        when(workspaces.list(any(), anyInt())).thenReturn(Mono.just(List.of(new Workspaces.WorkspaceSummary(id, "acme",
                Instant.parse("2030-01-01T00:00:00Z"), true, List.of("owner-1")))));
        Document page = html(browser.get().uri("/workspaces").exchange().expectStatus().isOk().expectBody(String.class).returnResult());
        assertThat(page.select("#workspace-list tr[data-workspace-id=" + id + "]").text()).contains("acme", "owner-1");

        UUID created = UUID.randomUUID();
        when(workspaces.create(any(), any(ObjectNode.class), anyString())).thenReturn(Mono.just(created));
        browser.post().uri("/workspaces").body(BodyInserters.fromFormData(form("name", "beta"))).exchange()
                .expectStatus().isSeeOther().expectHeader().location("/workspaces?created=" + created);
    }

    @Test
    void anOwnerWhoIsNoOperatorIs403AndNothingIsListed() {
        pages.console.signedIn("owner-1", Role.OWNER);
        browser.get().uri("/workspaces").exchange().expectStatus().isForbidden();
        verify(workspaces, never()).list(any(), anyInt());
    }

    @Test
    void aRefusedCreateIsShownAtItsInput() {
        pages.console.signedIn("operator-1", Role.OWNER).operator("operator-1");
        when(workspaces.list(any(), anyInt())).thenReturn(Mono.just(List.of()));
        when(workspaces.create(any(), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(ApiException.badField("ownerUserId", "ownerEmail needs ownerUserId")));

        Document page = html(browser.post().uri("/workspaces").body(BodyInserters.fromFormData(form("name", "beta",
                "ownerEmail", "o@example.test"))).exchange().expectStatus().isBadRequest().expectBody(String.class).returnResult());

        assertThat(page.select("#ws-owner-error").text()).isEqualTo("ownerEmail needs ownerUserId");
        assertThat(page.select("#ws-name").val()).isEqualTo("beta");
    }
}
