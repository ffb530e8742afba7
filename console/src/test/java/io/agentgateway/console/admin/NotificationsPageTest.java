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

import io.agentgateway.adminapi.notifications.DeadLetters;
import io.agentgateway.adminapi.notifications.NotificationSettingsAdmin;
import io.agentgateway.adminapi.shared.AdminRefusals;
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

/** The notifications page ({@link NotificationsPage}) over stubbed {@link NotificationSettingsAdmin} and {@link DeadLetters}. */
class NotificationsPageTest {
    private static final String PAGE = "/workspaces/" + WORKSPACE + "/notifications";

    private final AdminPageTests pages = new AdminPageTests();
    private final NotificationSettingsAdmin settings = mock(NotificationSettingsAdmin.class);
    private final DeadLetters deadLetters = mock(DeadLetters.class);
    private final WebTestClient browser = pages.console.bind(c -> ConsoleConfiguration.notifications(
            new NotificationsPage(pages.admin, settings, deadLetters)));

    @Test
    void theSettingsRecipientsAndDeadLettersAreShownNeverTheChatUrl() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(settings.view(WORKSPACE)).thenReturn(Mono.just(new NotificationSettingsAdmin.View(true, true, List.of("ops@example.test"))));
        when(deadLetters.list(any(), eq(WORKSPACE))).thenReturn(Mono.just(List.of(new DeadLetters.DeadLetter("0-3", "n-1",
                "kill_switch", "Kill switch turned on", Instant.parse("2030-01-01T00:00:00Z"), "chat", "chat: HTTP 500", null, null))));

        Document page = html(browser.get().uri(PAGE).exchange().expectStatus().isOk().expectBody(String.class).returnResult());

        assertThat(page.select("#recipients").text()).contains("ops@example.test");
        assertThat(page.select("#dead-letter-list tr[data-dead-letter=0-3]").text()).contains("Kill switch turned on");
        assertThat(page.select("#chatWebhookUrl").val()).isEmpty();
    }

    @Test
    void deadLettersKafkaCannotReadAreSaidSoBesideTheRest() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(settings.view(WORKSPACE)).thenReturn(Mono.just(new NotificationSettingsAdmin.View(false, false, List.of())));
        when(deadLetters.list(any(), eq(WORKSPACE)))
                .thenReturn(Mono.error(new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "The notifications' dead-letter topic cannot be read right now")));

        Document page = html(browser.get().uri(PAGE).exchange().expectStatus().isOk().expectBody(String.class).returnResult());

        assertThat(page.select("#dead-letters p.notice.error").text())
                .isEqualTo("The notifications' dead-letter topic cannot be read right now");
    }

    @Test
    void aUrlTheEgressPolicyRefusesIsShownAtItsInput() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(settings.view(WORKSPACE)).thenReturn(Mono.just(new NotificationSettingsAdmin.View(false, true, List.of())));
        when(deadLetters.list(any(), eq(WORKSPACE))).thenReturn(Mono.just(List.of()));
        when(settings.set(any(), eq(WORKSPACE), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(ApiException.badField("chatWebhookUrl", "chatWebhookUrl is refused by the egress policy: loopback")));

        Document page = html(browser.post().uri(PAGE).body(BodyInserters.fromFormData(form("chatWebhookUrl", "http://127.0.0.1/x",
                "emailEnabled", "on"))).exchange().expectStatus().isBadRequest().expectBody(String.class).returnResult());

        assertThat(page.select("#chatWebhookUrl-error").text()).isEqualTo("chatWebhookUrl is refused by the egress policy: loopback");
    }

    @Test
    void aWorkspaceTheReadModelLacksIsTheConsolesNotFound() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(settings.view(WORKSPACE)).thenReturn(Mono.error(AdminRefusals.workspaceNotFound()));
        when(deadLetters.list(any(), eq(WORKSPACE))).thenReturn(Mono.just(List.of()));

        browser.get().uri(PAGE).exchange().expectStatus().isNotFound()
                .expectBody(String.class).consumeWith(r -> assertThat(r.getResponseBody()).contains("There is nothing here"));
    }
}
