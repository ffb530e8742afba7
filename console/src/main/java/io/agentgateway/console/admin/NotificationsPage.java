package io.agentgateway.console.admin;

import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.Membership;
import io.agentgateway.console.web.Reader;
import io.agentgateway.adminapi.notifications.DeadLetters;
import io.agentgateway.adminapi.notifications.NotificationSettingsAdmin;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where a workspace's alerts go: email on or off (to the admins and owners with an email, listed here as the stream
 * resolves them), the chat incoming-webhook URL (a credential: written here, never shown, only whether one is set;
 * through the egress policy), a test notification through the real notifier path, and the workspace's dead letters
 * with "send again" ({@link DeadLetters}: once per dead letter; the notifier's ledger never repeats a channel that went
 * out).
 */
@Component
public class NotificationsPage {
    static final Map<String, String> INPUTS = Map.of("chatWebhookUrl", "chatWebhookUrl", "emailEnabled", "emailEnabled");

    private final AdminPages admin;
    private final NotificationSettingsAdmin settings;
    private final DeadLetters deadLetters;

    NotificationsPage(AdminPages admin, NotificationSettingsAdmin settings, DeadLetters deadLetters) {
        this.admin = admin;
        this.settings = settings;
        this.deadLetters = deadLetters;
    }

    /** GET /notifications */
    public Mono<ServerResponse> first(ServerRequest request) {
        return admin.first(request, "notifications", true);
    }

    /** GET /workspaces/{workspaceId}/notifications */
    public Mono<ServerResponse> page(ServerRequest request) {
        return admin.requests.reader(request).flatMap(reader -> {
            Membership member = AdminPages.admin(reader, request, "see and change notification settings");
            return model(reader, member, null, FormErrors.none()).map(model -> {
                model.put("done", request.queryParam("done").map(NotificationsPage::notice).orElse(null));
                return model;
            });
        }).flatMap(model -> admin.pages.page("notifications", model)).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private static String notice(String done) {
        return switch (done) {
            case "saved" -> "Saved: the decision stream uses these settings for every later alert.";
            case "test" -> "A test notification is on its way through the notifier to the recipients below.";
            case "redriven" -> "Sent again: the notifier delivers what failed; a channel that went out is not repeated.";
            default -> null;
        };
    }

    /** @param errorForm which form the errors are about: {@code settings}, {@code test} or {@code dead-letters} */
    private Mono<Map<String, Object>> model(Reader reader, Membership member, String errorForm, FormErrors errors) {
        UUID workspaceId = member.workspaceId();
        // the dead letters are a part of the page: Kafka unreadable, the page says so there and shows the rest
        Mono<Letters> letters = deadLetters.list(reader.session().user(), workspaceId)
                .map(list -> new Letters(list, null))
                .onErrorResume(ApiException.class, unavailable -> Mono.just(new Letters(List.of(), unavailable.getMessage())));
        return Mono.zip(admin.model(reader, member, "notifications", "notifications"),
                settings.view(workspaceId).onErrorMap(ConsoleException::notFoundOf), letters)
                .map(loaded -> {
                    Map<String, Object> model = loaded.getT1();
                    model.put("settings", loaded.getT2());
                    model.put("deadLetters", loaded.getT3().list());
                    model.put("deadLettersUnavailable", loaded.getT3().unavailable());
                    model.put("errorForm", errorForm);
                    model.put("errors", errors);
                    model.put("done", null);
                    return model;
                });
    }

    /** The workspace's dead letters, or why they cannot be listed now. */
    private record Letters(List<DeadLetters.DeadLetter> list, String unavailable) {}

    /** POST /workspaces/{workspaceId}/notifications (emailEnabled, chatWebhookUrl, removeChat) */
    public Mono<ServerResponse> save(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "change notification settings");
            UUID workspaceId = member.workspaceId();
            ObjectNode body = Forms.object();
            body.put("emailEnabled", Forms.checked(submitted.form(), "emailEnabled"));
            String url = Forms.raw(submitted.form(), "chatWebhookUrl");
            if (url != null && !url.isBlank()) {
                body.put("chatWebhookUrl", url.strip());
            } else if (!Forms.checked(submitted.form(), "removeChat")) {
                // the stored URL stays: the page never had it
                body.put("keepChatWebhook", true);
            }
            return settings.set(submitted.reader().session().user(), workspaceId, body, CorrelationIds.of(request))
                    .flatMap(applied -> admin.applied(workspaceId, applied, "/workspaces/" + workspaceId + "/notifications?done=saved"))
                    .onErrorResume(e -> rerender(submitted.reader(), member, "settings", e, INPUTS));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /** POST /workspaces/{workspaceId}/notifications/test */
    public Mono<ServerResponse> test(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "send test notifications");
            UUID workspaceId = member.workspaceId();
            return settings.sendTest(submitted.reader().session().user(), workspaceId, CorrelationIds.of(request))
                    .then(mono(workspaceId))
                    .onErrorResume(e -> rerender(submitted.reader(), member, "test", e, Map.of()));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private static Mono<ServerResponse> mono(UUID workspaceId) {
        return ServerResponse.seeOther(URI.create("/workspaces/" + workspaceId + "/notifications?done=test")).build();
    }

    /** POST /workspaces/{workspaceId}/notifications/dead-letters/{deadLetterId}/redrive */
    public Mono<ServerResponse> redrive(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Membership member = AdminPages.admin(submitted.reader(), request, "send notifications again");
            UUID workspaceId = member.workspaceId();
            String id = request.pathVariable("deadLetterId");
            return deadLetters.redrive(submitted.reader().session().user(), workspaceId, id)
                    .then(ServerResponse.seeOther(URI.create("/workspaces/" + workspaceId
                            + "/notifications?done=redriven#dead-letters")).build())
                    .onErrorResume(e -> rerender(submitted.reader(), member, "dead-letters", e, Map.of()));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private Mono<ServerResponse> rerender(Reader reader, Membership member, String form, Throwable failure,
                                          Map<String, String> inputs) {
        return FormErrors.of(failure, inputs)
                .map(errors -> model(reader, member, form, errors)
                        .flatMap(model -> admin.pages.page(errors.status(), "notifications", model)))
                .orElseGet(() -> Mono.error(failure));
    }
}
