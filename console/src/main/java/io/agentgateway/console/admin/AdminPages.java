package io.agentgateway.console.admin;

import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.ConsolePages;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Formats;
import io.agentgateway.console.web.Membership;
import io.agentgateway.console.web.Reader;
import io.agentgateway.adminapi.audit.ChangeHistory;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.actiongate.connection.ReadModelProgress;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import java.net.URI;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * What the admin pages share: who may see them (any reader of the workspace for the policies, read-only; admins and
 * owners for the rest, as the admin API's reads), their common model, the change history beside each setting, and the
 * answer after a change: once the decision stream applied it and the read model shows it, a 303 to the page that
 * shows it. Hiding a control is a convenience: the decision stream decides every change in log order.
 */
@Component
class AdminPages {
    static final int RECENT_CHANGES = 8;

    final ConsoleRequests requests;
    final ConsolePages pages;
    final PublicBaseUrl baseUrl;
    private final ReadModelProgress progress;
    private final ChangeHistory history;

    AdminPages(ConsoleRequests requests, ConsolePages pages, PublicBaseUrl baseUrl, ReadModelProgress progress,
               ChangeHistory history) {
        this.requests = requests;
        this.pages = pages;
        this.baseUrl = baseUrl;
        this.progress = progress;
        this.history = history;
    }

    /** The path's workspace, if the user reads it (else 404, as for one that does not exist). */
    static Membership member(Reader reader, ServerRequest request) {
        UUID workspaceId = ConsoleRequests.uuid(request.pathVariable("workspaceId"));
        return reader.membership(workspaceId).orElseThrow(ConsoleException::notFound);
    }

    /** The path's workspace, if the user administers it (a reader who does not: 403 saying who may). */
    static Membership admin(Reader reader, ServerRequest request, String what) {
        Membership member = member(reader, request);
        if (!member.mayAdminister()) {
            throw ConsoleException.forbidden("Only an admin or owner of the workspace may " + what
                    + " (your role: " + member.role().wire() + ").");
        }
        return member;
    }

    /** The model every admin page starts from. {@code section} marks the navigation's current entry. */
    Map<String, Object> model(Reader reader, Membership member, String section) {
        Map<String, Object> model = new HashMap<>();
        model.put("reader", reader);
        model.put("fmt", Formats.INSTANCE);
        model.put("member", member);
        model.put("section", section);
        model.put("now", Instant.now());
        // the picker lists the workspaces this page is for: every readable one for the policies, administered ones else
        model.put("workspaces", "policies".equals(section) ? reader.memberships()
                : reader.memberships().stream().filter(Membership::mayAdminister).toList());
        return model;
    }

    /**
     * {@link #model} with the newest changes of these areas beside it ({@code changes}: who changed what, from the admin
     * API's {@link ChangeHistory}).
     */
    Mono<Map<String, Object>> model(Reader reader, Membership member, String section, String... areas) {
        return history.recent(member.workspaceId(), Set.of(areas), RECENT_CHANGES).map(changes -> {
            Map<String, Object> model = model(reader, member, section);
            model.put("changes", changes);
            return model;
        });
    }

    /** A 303 to {@code location} once the read model shows the change the admin API's service applied. */
    Mono<ServerResponse> applied(UUID workspaceId, Applied applied, String location) {
        return progress.awaitWorkspaceVersion(workspaceId, applied == null ? null : applied.workspaceVersion())
                .then(ServerResponse.seeOther(URI.create(location)).build());
    }

    /** GET /{section}[?workspace=…]: the page of that workspace, else of the first one the page is for. */
    Mono<ServerResponse> first(ServerRequest request, String section, boolean administered) {
        return requests.reader(request)
                .flatMap(reader -> {
                    Membership member = request.queryParam("workspace").filter(w -> !w.isEmpty())
                            .map(w -> reader.membership(ConsoleRequests.uuid(w)).orElseThrow(ConsoleException::notFound))
                            .orElseGet(() -> reader.memberships().stream()
                                    .filter(m -> !administered || m.mayAdminister()).findFirst()
                                    .orElseThrow(() -> administered && !reader.memberships().isEmpty()
                                            ? new ConsoleException(HttpStatus.FORBIDDEN,
                                            "Only an admin or owner of a workspace sees this page; you administer none.")
                                            : ConsoleException.notFound()));
                    return ServerResponse.seeOther(URI.create("/workspaces/" + member.workspaceId() + "/" + section)).build();
                })
                .onErrorResume(e -> requests.failure(request, e));
    }
}
