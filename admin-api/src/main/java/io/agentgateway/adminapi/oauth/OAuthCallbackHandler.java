package io.agentgateway.adminapi.oauth;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.Tool;
import java.net.URI;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The upstream's redirect back after consent, at the callback path of the tool's profile:
 * {@code GET /functions/v1/issue-tracker-oauth-callback} (spec 4.7) and
 * {@code GET /functions/v1/code-host-oauth-callback} (ours), with {@code code} and
 * {@code state}, or {@code error} when the admin declined. The browser brings no credential of its
 * own but the flow cookie the start set: the signed, sealed state is the proof of who started the flow and the
 * cookie of which browser did, so both are checked first and every failure is a JSON error that stores nothing. The answer is JSON too: {@code {ok, workspaceId, tool,
 * accessTokenSet}}, unless the flow was started from the console: once its state is verified, the browser is sent back
 * to the console's tools page with the result's code, success or failure.
 */
@Component
public class OAuthCallbackHandler {
    static final String STATE_REQUIRED = "state is required";
    static final String CODE_REQUIRED = "code is required";
    /** The console's tools page of a workspace, with the tool and the result of its flow. */
    static final String CONSOLE_TOOLS = "/workspaces/%s/tools?oauth=%s&result=%s#tool-%s";
    private static final String ERROR_CODE = "[A-Za-z0-9_.-]{1,64}";

    private final OAuthStateTokens states;
    private final OAuthConnector connector;

    OAuthCallbackHandler(OAuthStateTokens states, OAuthConnector connector) {
        this.states = states;
        this.connector = connector;
    }

    record Connected(boolean ok, String workspaceId, String tool, boolean accessTokenSet) {}

    /** The redirect back of a tool with OAuth, at its profile's callback path ({@code ToolProfile.OAuth#callbackPath}). */
    public Mono<ServerResponse> callback(ServerRequest request, Tool callbackOf) {
        OAuthTool tool = OAuthTool.of(callbackOf)
                .orElseThrow(() -> new IllegalArgumentException("the " + callbackOf.wire() + " tool has no OAuth callback"));
        return callback(request, tool);
    }

    private Mono<ServerResponse> callback(ServerRequest request, OAuthTool tool) {
        return Mono.defer(() -> {
            OAuthState state = states.verify(single(request, "state").orElseThrow(() -> ApiException.badRequest(STATE_REQUIRED)));
            if (state.tool().tool() != tool.tool()) {
                throw ApiException.badRequest("state was issued for the " + state.tool().tool().wire()
                        + " tool, not for this callback");
            }
            // only the browser that started the flow can finish it (before anything is spent or exchanged)
            OAuthBrowserBinding.require(request, state);
            Mono<ServerResponse> finished = finish(request, tool, state);
            if (!state.fromConsole()) {
                return finished;
            }
            // started from the console: back to its tools page with the result, whatever it is (a verified state only)
            return finished.onErrorResume(failure -> backToConsole(tool, state, OAuthFlows.resultOf(failure)));
        });
    }

    private Mono<ServerResponse> finish(ServerRequest request, OAuthTool tool, OAuthState state) {
        return Mono.defer(() -> {
            Optional<String> error = single(request, "error");
            if (error.isPresent()) {
                return connector.decline(state).then(Mono.error(declined(tool, error.get())));
            }
            String code = single(request, "code").orElseThrow(() -> ApiException.badRequest(CODE_REQUIRED));
            return connector.connect(state, code, CorrelationIds.of(request))
                    .then(Mono.defer(() -> state.fromConsole()
                            ? backToConsole(tool, state, OAuthFlows.Result.CONNECTED)
                            : ServerResponse.ok()
                            .cookie(OAuthBrowserBinding.cleared(tool, state.redirectUri()))
                            .contentType(MediaType.APPLICATION_JSON)
                            .header(HttpHeaders.CACHE_CONTROL, "no-store")
                            .bodyValue(IngressJson.RESPONSES.writeValueAsBytes(new Connected(true,
                                    state.workspaceId().toString(), tool.tool().wire(), true)))));
        });
    }

    /**
     * A 303 to the console's tools page of the state's workspace, naming the tool and a {@link OAuthFlows.Result} code
     * (never a text: a link to the page cannot make it say anything but the console's own sentences).
     */
    private static Mono<ServerResponse> backToConsole(OAuthTool tool, OAuthState state, OAuthFlows.Result result) {
        return ServerResponse.seeOther(URI.create(CONSOLE_TOOLS.formatted(state.workspaceId(), tool.tool().wire(),
                        result.code(), tool.tool().wire())))
                .cookie(OAuthBrowserBinding.cleared(tool, state.redirectUri()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .build();
    }

    /** The upstream's own error code (RFC 6749 4.1.2.1) is named when it looks like one; its description is not echoed. */
    private static ApiException declined(OAuthTool tool, String error) {
        if (error.equals("access_denied")) {
            return ApiException.badRequest("Consent was denied at the " + tool.displayName()
                    + " (access_denied): nothing was stored");
        }
        String code = error.matches(ERROR_CODE) ? " (" + error + ")" : "";
        return ApiException.badRequest("The " + tool.displayName() + " refused the authorization" + code
                + ": nothing was stored");
    }

    /** A query parameter given once and not blank; given twice it is refused (which one would count?). */
    private static Optional<String> single(ServerRequest request, String name) {
        var values = request.queryParams().get(name);
        if (values == null || values.isEmpty()) {
            return Optional.empty();
        }
        if (values.size() > 1) {
            throw ApiException.badRequest(name + " must be given once");
        }
        String value = values.get(0);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }
}
