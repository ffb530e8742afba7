package io.agentgateway.ingress.admin;

import io.agentgateway.ingress.egress.EgressUrls;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.JsonBodyReader;
import io.agentgateway.ingress.web.JsonFields;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.schemas.command.SetNotificationSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * /admin/v1/workspaces/{workspaceId}/notification-settings. PUT {chatWebhookUrl, emailEnabled}
 * replaces both (a null or absent URL clears it); GET shows only whether a chat webhook is set,
 * never the URL.
 */
@Component
public class NotificationSettingsHandler {
    static final String URL_MESSAGE = "chatWebhookUrl must be an http or https URL";

    private final AdminAccess access;
    private final AdminCommands commands;
    private final JsonBodyReader bodies;
    private final WorkspaceRepository workspaces;
    private final SecretSealer sealer;
    private final EgressUrls egress;

    NotificationSettingsHandler(AdminAccess access, AdminCommands commands, JsonBodyReader bodies,
                                WorkspaceRepository workspaces, SecretSealer sealer, EgressUrls egress) {
        this.access = access;
        this.commands = commands;
        this.bodies = bodies;
        this.workspaces = workspaces;
        this.sealer = sealer;
        this.egress = egress;
    }

    record SettingsView(boolean ok, boolean chatConfigured, boolean emailEnabled) {}

    public Mono<ServerResponse> get(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> Blocking.call(() -> workspaces.notifications(caller.workspaceId()).orElse(null)))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound(WorkspaceStateHandler.WORKSPACE_NOT_FOUND)))
                .flatMap(state -> JsonResponses.ok(new SettingsView(true, state.chatConfigured(), state.emailEnabled())));
    }

    public Mono<ServerResponse> put(ServerRequest request) {
        return access.caller(request).flatMap(caller -> bodies.readObject(request).flatMap(body -> {
            JsonFields.onlyKnownFields(body, Set.of("chatWebhookUrl", "emailEnabled"), "");
            String url = JsonFields.optionalString(body, "chatWebhookUrl");
            if (url != null) {
                // the policy first: it reads hosts that java.net.URI does not call hosts (2130706433, 127.0.0.1.)
                egress.require("chatWebhookUrl", url);
                requireWebUrl(url);
            }
            boolean emailEnabled = JsonFields.requiredBoolean(body, "emailEnabled");
            String sealed = url == null ? null : sealer.seal(url);
            return commands.send(request, caller.user(), caller.workspaceId(), new SetNotificationSettings(sealed, emailEnabled))
                    .then(JsonResponses.ok(JsonResponses.Ok.INSTANCE));
        }));
    }

    private static void requireWebUrl(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getHost().isBlank()) {
                throw ApiException.badRequest(URL_MESSAGE);
            }
        } catch (URISyntaxException e) {
            throw ApiException.badRequest(URL_MESSAGE);
        }
    }
}
