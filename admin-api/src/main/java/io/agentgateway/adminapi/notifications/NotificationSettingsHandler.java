package io.agentgateway.adminapi.notifications;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * /admin/v1/workspaces/{workspaceId}/notification-settings: the HTTP side of {@link NotificationSettingsAdmin}. PUT
 * {chatWebhookUrl, emailEnabled} replaces both (a null or absent URL clears it); GET shows only whether a chat webhook
 * is set, never the URL. POST .../notification-settings/test sends a test notification.
 */
@Component
public class NotificationSettingsHandler {
    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final NotificationSettingsAdmin settings;

    NotificationSettingsHandler(AdminAccess access, JsonBodyReader bodies, NotificationSettingsAdmin settings) {
        this.access = access;
        this.bodies = bodies;
        this.settings = settings;
    }

    record SettingsView(boolean ok, boolean chatConfigured, boolean emailEnabled) {}

    public Mono<ServerResponse> get(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> settings.view(caller.workspaceId()))
                .flatMap(view -> JsonResponses.ok(new SettingsView(true, view.chatConfigured(), view.emailEnabled())));
    }

    public Mono<ServerResponse> put(ServerRequest request) {
        return access.caller(request).flatMap(caller -> bodies.readObject(request)
                .flatMap(body -> settings.set(caller.user(), caller.workspaceId(), body, CorrelationIds.of(request)))
                .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE)));
    }

    /** POST .../notification-settings/test: a test notification through the notifier (admin or owner). */
    public Mono<ServerResponse> test(ServerRequest request) {
        return access.caller(request).flatMap(caller -> settings.sendTest(caller.user(), caller.workspaceId(),
                        CorrelationIds.of(request)))
                .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
    }
}
