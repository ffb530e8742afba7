package io.agentgateway.console.admin;

import static io.agentgateway.console.web.ConsolePageClient.WORKSPACE;
import static io.agentgateway.console.web.ConsolePageClient.form;
import static io.agentgateway.console.web.ConsolePageClient.html;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.members.MemberAdmin;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.console.ConsoleConfiguration;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Role;
import java.time.Instant;
import java.util.List;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** The members page ({@link MembersPage}) over a stubbed {@link MemberAdmin}. */
class MembersPageTest {
    private static final String PAGE = "/workspaces/" + WORKSPACE + "/members";
    private static final Instant AT = Instant.parse("2030-01-01T00:00:00Z");

    private final AdminPageTests pages = new AdminPageTests();
    private final MemberAdmin members = mock(MemberAdmin.class);
    private final WebTestClient browser = pages.console.bind(c -> ConsoleConfiguration.members(new MembersPage(pages.admin, members)));

    @Test
    void anAdminSeesWhyTheOwnerCannotBeChangedByThem() {
        pages.console.signedIn("admin-1", Role.ADMIN);
        when(members.list(WORKSPACE)).thenReturn(Mono.just(List.of(new MemberAdmin.MemberView("owner-1", null, "owner", AT),
                new MemberAdmin.MemberView("admin-1", null, "admin", AT))));

        Document page = html(browser.get().uri(PAGE).exchange().expectStatus().isOk().expectBody(String.class).returnResult());

        assertThat(page.select("#member-list tr[data-user-id=owner-1] button").attr("disabled")).isNotNull();
        assertThat(page.select("#why-0").text()).isEqualTo(MembersPage.ONLY_OWNERS);
        assertThat(page.select("#owner-note")).hasSize(1);
        assertThat(page.select("#invite-role option[value=owner]").hasAttr("disabled")).isTrue();
    }

    @Test
    void anInviteByEmailSendsItAsTheEmailTooAndGoesBackOnceApplied() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(members.set(any(), eq(WORKSPACE), eq("dev@example.test"), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.just(new Applied(3L)));

        browser.post().uri(PAGE).body(BodyInserters.fromFormData(form("userId", "dev@example.test", "role", "reviewer"))).exchange()
                .expectStatus().isSeeOther().expectHeader().location(PAGE + "?done=invited");
    }

    @Test
    void theStreamsRefusalIsTheFormsErrorWithWhatWasTyped() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(members.list(WORKSPACE)).thenReturn(Mono.just(List.of()));
        when(members.set(any(), eq(WORKSPACE), eq("dev-1"), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(new ApiException(HttpStatus.TOO_MANY_REQUESTS, "Workspace member limit reached")));

        Document page = html(browser.post().uri(PAGE).body(BodyInserters.fromFormData(form("userId", "dev-1", "role", "viewer")))
                .exchange().expectStatus().isEqualTo(HttpStatus.TOO_MANY_REQUESTS).expectBody(String.class).returnResult());

        assertThat(page.select("p.notice.error").text()).isEqualTo("Workspace member limit reached");
        assertThat(page.select("#invite-user").val()).isEqualTo("dev-1");
    }
}
