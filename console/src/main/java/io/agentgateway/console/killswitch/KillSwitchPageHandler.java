package io.agentgateway.console.killswitch;

import io.agentgateway.console.session.ConsoleSessions;
import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.ConsolePages;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Formats;
import io.agentgateway.console.web.Membership;
import io.agentgateway.console.web.Reader;
import io.agentgateway.httpedge.auth.OidcIssuer;
import io.agentgateway.actiongate.connection.ReadModelProgress;
import io.agentgateway.adminapi.killswitch.KillSwitch;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Tool;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The kill switch and per-tool pauses of one workspace: the state at a glance (who turned it on, when, why), and the
 * controls for admins and owners: every change needs a reason and a sign-in younger than
 * {@code gateway.console.reauth-after} (else a re-authentication at the provider first). A change goes through
 * {@link KillSwitch}, as the API's does, and the page says "applied" only once the decision stream applied it.
 */
@Component
public class KillSwitchPageHandler {
    private final ConsoleRequests requests;
    private final ConsolePages pages;
    private final KillSwitchState states;
    private final KillSwitch killSwitch;
    private final ConsoleSessions sessions;
    private final OidcIssuer oidc;
    private final ReadModelProgress progress;

    KillSwitchPageHandler(ConsoleRequests requests, ConsolePages pages, KillSwitchState states, KillSwitch killSwitch,
                          ConsoleSessions sessions, OidcIssuer oidc, ReadModelProgress progress) {
        this.progress = progress;
        this.requests = requests;
        this.pages = pages;
        this.states = states;
        this.killSwitch = killSwitch;
        this.sessions = sessions;
        this.oidc = oidc;
    }

    /** GET /workspaces/{workspaceId}/kill-switch */
    public Mono<ServerResponse> page(ServerRequest request) {
        return requests.reader(request)
                .flatMap(reader -> {
                    UUID workspaceId = ConsoleRequests.uuid(request.pathVariable("workspaceId"));
                    Membership member = reader.membership(workspaceId).orElseThrow(ConsoleException::notFound);
                    String applied = request.queryParam("applied").filter(a -> KillSwitchAction.parse(a).isPresent()).orElse(null);
                    return Blocking.call(() -> model(reader, member, applied));
                })
                .flatMap(model -> pages.page("killswitch", model))
                .onErrorResume(e -> requests.failure(request, e));
    }

    /** GET /kill-switch[?workspace=…]: that workspace's page, else the first one's (the navigation's link). */
    public Mono<ServerResponse> first(ServerRequest request) {
        return requests.reader(request)
                .flatMap(reader -> {
                    Membership member = request.queryParam("workspace").filter(w -> !w.isEmpty())
                            .map(w -> reader.membership(ConsoleRequests.uuid(w)).orElseThrow(ConsoleException::notFound))
                            .orElseGet(() -> reader.memberships().stream().findFirst().orElseThrow(ConsoleException::notFound));
                    return ServerResponse.seeOther(URI.create("/workspaces/" + member.workspaceId() + "/kill-switch")).build();
                })
                .onErrorResume(e -> requests.failure(request, e));
    }

    /** POST /workspaces/{workspaceId}/kill-switch (action, tool, reason) */
    public Mono<ServerResponse> change(ServerRequest request) {
        return requests.submission(request).flatMap(submitted -> {
            UUID workspaceId = ConsoleRequests.uuid(request.pathVariable("workspaceId"));
            Reader reader = submitted.reader();
            Membership member = reader.membership(workspaceId).orElseThrow(ConsoleException::notFound);
            if (!member.mayAdminister()) {
                throw ConsoleException.forbidden("Only an admin or owner of the workspace may use the kill switch.");
            }
            KillSwitchAction action = KillSwitchAction.parse(submitted.field("action"))
                    .orElseThrow(() -> ConsoleException.badRequest("Unsupported action."));
            Tool tool = null;
            if (action == KillSwitchAction.PAUSE_TOOL || action == KillSwitchAction.RESUME_TOOL) {
                tool = Tool.parse(submitted.field("tool")).orElseThrow(() -> ConsoleException.badRequest("Choose a tool."));
            }
            String reason = submitted.field("reason") == null ? "" : submitted.field("reason").strip();
            if (reason.isEmpty()) {
                throw ConsoleException.badRequest("Say why: the reason is kept with the change and shown to everyone.");
            }
            if (reason.length() > KillSwitch.MAX_REASON_LENGTH) {
                throw ConsoleException.badRequest("The reason is longer than " + KillSwitch.MAX_REASON_LENGTH + " characters.");
            }
            String here = "/workspaces/" + workspaceId + "/kill-switch";
            if (!sessions.recentlyAuthenticated(reader.session())) {
                if (oidc.configured() && "oidc".equals(reader.session().signedInVia())) {
                    // a page with a link, not a redirect: the Content-Security-Policy's form-action 'self' rightly stops a
                    // form post from being redirected to another site (the provider)
                    Map<String, Object> model = new HashMap<>();
                    model.put("reader", reader);
        model.put("fmt", Formats.INSTANCE);
                    model.put("section", "kill-switch");
                    model.put("confirm", "/signin/start?reauth=1&next="
                            + URLEncoder.encode(here + "?reauthenticated=1", StandardCharsets.UTF_8));
                    model.put("back", here);
                    return pages.page(HttpStatus.UNAUTHORIZED, "reauth", model);
                }
                throw new ConsoleException(HttpStatus.UNAUTHORIZED, "Your sign-in is older than the kill switch allows:"
                        + " sign in again with a new one-time link (java -jar launcher-0.1.0-SNAPSHOT-exec.jar signin-link),"
                        + " then press the switch.");
            }
            // applied by the stream; the page it goes to reads the read model, which shows it once projected (a refusal is
            // the stream's words, on the console's error page)
            return killSwitch.apply(reader.session().user(), workspaceId, action, tool, reason, CorrelationIds.of(request))
                    .flatMap(applied -> progress.awaitWorkspaceVersion(workspaceId, applied.workspaceVersion()))
                    .then(ServerResponse.seeOther(URI.create(here + "?applied=" + action.wire())).build());
        }).onErrorResume(e -> requests.failure(request, e));
    }

    private Map<String, Object> model(Reader reader, Membership member, String applied) {
        KillSwitchState.State state = states.of(member.workspaceId()).orElseThrow(ConsoleException::notFound);
        Map<String, Object> model = new HashMap<>();
        model.put("reader", reader);
        model.put("fmt", Formats.INSTANCE);
        model.put("workspaces", reader.memberships());
        model.put("member", member);
        model.put("state", state);
        model.put("tools", Arrays.stream(Tool.values()).map(Tool::wire).toList());
        model.put("applied", applied);
        model.put("recent", sessions.recentlyAuthenticated(reader.session()));
        model.put("now", Instant.now());
        model.put("section", "kill-switch");
        return model;
    }

}
