package io.agentgateway.adminapi.notifications;

import io.agentgateway.adminapi.shared.AdminCommands;
import io.agentgateway.adminapi.shared.AdminRefusals;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.adminapi.shared.SecretSealer;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.egress.EgressUrls;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.schemas.command.SendTestNotification;
import io.agentgateway.schemas.command.SetNotificationSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where a workspace's notifications go, for every client of it (the admin API, the console): email on or off (to the
 * admins and owners with an email, resolved by the decision stream when something happens) and the chat incoming-webhook
 * URL, which is a credential: it passes the egress policy, is sealed here and is never shown again (only whether one is
 * set). A test notification goes the same way as a real alert ({@link SendTestNotification}).
 */
@Service
public class NotificationSettingsAdmin {
    static final String URL_MESSAGE = "chatWebhookUrl must be an http or https URL";

    /** @param recipients who email goes to now, as the read model shows the members (admins and owners with an email) */
    public record View(boolean chatConfigured, boolean emailEnabled, List<String> recipients) {}

    private final AdminCommands commands;
    private final NotificationSettingsRepository workspaces;
    private final SecretSealer sealer;
    private final EgressUrls egress;

    NotificationSettingsAdmin(AdminCommands commands, NotificationSettingsRepository workspaces, SecretSealer sealer, EgressUrls egress) {
        this.commands = commands;
        this.workspaces = workspaces;
        this.sealer = sealer;
        this.egress = egress;
    }

    /** The settings as they stand (never the chat URL); 404 when the workspace does not exist. */
    public Mono<View> view(UUID workspaceId) {
        return Blocking.call(() -> workspaces.notifications(workspaceId)
                .map(state -> new View(state.chatConfigured(), state.emailEnabled(), workspaces.administratorEmails(workspaceId)))
                .orElseThrow(AdminRefusals::workspaceNotFound));
    }

    /**
     * {@code {chatWebhookUrl, emailEnabled, keepChatWebhook?}} as {@code PUT .../notification-settings} takes it: replaces
     * both (a null or absent URL clears it), unless {@code keepChatWebhook} is true, which keeps the stored URL.
     */
    public Mono<Applied> set(AuthenticatedUser user, UUID workspaceId, ObjectNode body, String correlationId) {
        return Mono.fromCallable(() -> {
            JsonFields.onlyKnownFields(body, Set.of("chatWebhookUrl", "emailEnabled", "keepChatWebhook"), "");
            String url = JsonFields.optionalString(body, "chatWebhookUrl");
            boolean keep = JsonFields.optionalBoolean(body, "keepChatWebhook", false);
            if (keep && url != null) {
                throw ApiException.badField("chatWebhookUrl", "keepChatWebhook and chatWebhookUrl cannot both be set");
            }
            if (url != null) {
                // the policy first: it reads hosts that java.net.URI does not call hosts (2130706433, 127.0.0.1.)
                egress.require("chatWebhookUrl", url);
                requireWebUrl(url);
            }
            boolean emailEnabled = JsonFields.requiredBoolean(body, "emailEnabled");
            return new SetNotificationSettings(url == null ? null : sealer.seal(url), emailEnabled, keep ? Boolean.TRUE : null);
        }).flatMap(command -> commands.send(correlationId, user, workspaceId, command));
    }

    /** A {@code test} notification to the settings as the decision stream has them (409 when nobody would be told). */
    public Mono<Applied> sendTest(AuthenticatedUser user, UUID workspaceId, String correlationId) {
        return commands.send(correlationId, user, workspaceId, new SendTestNotification());
    }

    private static void requireWebUrl(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getHost().isBlank()) {
                throw ApiException.badField("chatWebhookUrl", URL_MESSAGE);
            }
        } catch (URISyntaxException e) {
            throw ApiException.badField("chatWebhookUrl", URL_MESSAGE);
        }
    }
}
