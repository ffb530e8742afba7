package io.agentgateway.adminapi.notifications;

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
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /admin/v1/workspaces/{id}/notification-settings} and {@code /dead-letters}: {@link NotificationSettingsHandler}
 * and {@link DeadLetterAdminHandler} over stubbed {@link NotificationSettingsAdmin} and {@link DeadLetters}.
 */
class NotificationHandlersTest {
    private static final String WS = "/admin/v1/workspaces/" + WORKSPACE;

    private final NotificationSettingsAdmin settings = mock(NotificationSettingsAdmin.class);
    private final DeadLetters deadLetters = mock(DeadLetters.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.notifications(
            new NotificationSettingsHandler(e.access(), e.bodies(), settings), new DeadLetterAdminHandler(e.access(), deadLetters)));

    @Test
    void theSettingsShowWhetherChatIsSetNeverItsUrlNorTheRecipients() {
        when(settings.view(WORKSPACE)).thenReturn(Mono.just(new NotificationSettingsAdmin.View(true, false,
                List.of("owner@example.test"))));

        http.get().uri(WS + "/notification-settings").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.chatConfigured").isEqualTo(true)
                .jsonPath("$.emailEnabled").isEqualTo(false)
                .jsonPath("$.chatWebhookUrl").doesNotExist()
                .jsonPath("$.recipients").doesNotExist();
    }

    @Test
    void aPutAndATestAreTheStreamsAnswers() {
        when(settings.set(any(), eq(WORKSPACE), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(ApiException.badField("chatWebhookUrl", "chatWebhookUrl is refused by the egress policy: loopback")));
        http.put().uri(WS + "/notification-settings").header("Authorization", bearer("owner-1"))
                .bodyValue("{\"chatWebhookUrl\":\"http://127.0.0.1/hook\",\"emailEnabled\":true}").exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.error").isEqualTo("chatWebhookUrl is refused by the egress policy: loopback");

        when(settings.sendTest(any(), eq(WORKSPACE), anyString()))
                .thenReturn(Mono.error(new ApiException(HttpStatus.CONFLICT, "Nobody would be told: no chat webhook, email off")));
        http.post().uri(WS + "/notification-settings/test").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isEqualTo(HttpStatus.CONFLICT);

        when(settings.sendTest(any(), eq(WORKSPACE), anyString())).thenReturn(Mono.just(new Applied(3L)));
        http.post().uri(WS + "/notification-settings/test").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.ok").isEqualTo(true);
    }

    @Test
    void deadLettersAreListedAndOneIsSentAgainOnce() {
        DeadLetters.DeadLetter letter = new DeadLetters.DeadLetter("0-7", "n-1", "kill_switch", "Kill switch on",
                Instant.parse("2030-01-01T00:00:00Z"), "chat", "chat: HTTP 500", null, null);
        when(deadLetters.list(any(), eq(WORKSPACE))).thenReturn(Mono.just(List.of(letter)));
        http.get().uri(WS + "/dead-letters").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.items[0].id").isEqualTo("0-7");

        when(deadLetters.redrive(any(), eq(WORKSPACE), eq("0-7")))
                .thenReturn(Mono.error(new ApiException(HttpStatus.CONFLICT, "This dead letter was sent again by owner-1")));
        http.post().uri(WS + "/dead-letters/0-7/redrive").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isEqualTo(HttpStatus.CONFLICT)
                .expectBody().jsonPath("$.error").isEqualTo("This dead letter was sent again by owner-1");
    }

    @Test
    void theListingIsForAdminsAndKafkaUnreadableIs503() {
        http.get().uri(WS + "/dead-letters").header("Authorization", bearer("viewer-1")).exchange().expectStatus().isForbidden();
        verify(deadLetters, never()).list(any(), any());

        when(deadLetters.list(any(), eq(WORKSPACE)))
                .thenReturn(Mono.error(new ApiException(HttpStatus.SERVICE_UNAVAILABLE, DeadLetters.UNAVAILABLE)));
        http.get().uri(WS + "/dead-letters").header("Authorization", bearer("owner-1")).exchange()
                .expectStatus().isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    }
}
