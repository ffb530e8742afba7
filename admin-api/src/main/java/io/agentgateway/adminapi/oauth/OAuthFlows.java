package io.agentgateway.adminapi.oauth;

import io.agentgateway.adminapi.shared.WorkspaceRoles;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.gatewayclient.DecisionServiceUnavailableException;
import io.agentgateway.gatewayclient.DecisionTimeoutException;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.schemas.Tool;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * Starting an OAuth connect flow, for every client of it (the admin API's start with a JWT, the console's "Connect"
 * with its session): a fresh signed and sealed {@code state} bound to the workspace, the tool, the admin and the
 * browser (the flow cookie set with the answer), and the tool's authorize URL. Both end at the same callback; a flow
 * started from the console is sent back to the console's tools page with its {@link Result}.
 */
@Service
public class OAuthFlows {

    /** Where to send the browser, and the flow cookie to set with that answer. */
    public record Started(URI authorizeUrl, ResponseCookie flowCookie) {}

    /** How a console-started flow ended, as the callback tells the console's tools page ({@code result=<code>}). */
    public enum Result {
        CONNECTED("connected"),
        /** the admin declined at the upstream */
        DENIED("denied"),
        /** the upstream refused the authorization otherwise */
        REFUSED("refused"),
        /** the state was used before: start again */
        REUSED("reused"),
        /** the admin who started is no longer admin or owner */
        NOT_ADMIN("not_admin"),
        /** the upstream's token endpoint failed or refused the code */
        EXCHANGE_FAILED("exchange_failed"),
        /** OAuth, the app or secret storage is not configured, or the decision service is unavailable */
        UNAVAILABLE("unavailable"),
        FAILED("failed");

        private final String code;

        Result(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }

        public static Optional<Result> parse(String code) {
            for (Result result : values()) {
                if (result.code.equals(code)) {
                    return Optional.of(result);
                }
            }
            return Optional.empty();
        }
    }

    private final OAuthConfiguration configuration;
    private final OAuthStateTokens states;
    private final OAuthProperties properties;
    private final WorkspaceRoles roles;
    private final Clock clock = Clock.systemUTC();

    OAuthFlows(OAuthConfiguration configuration, OAuthStateTokens states, OAuthProperties properties, WorkspaceRoles roles) {
        this.configuration = configuration;
        this.states = states;
        this.properties = properties;
        this.roles = roles;
    }

    /** Whether the tool connects by OAuth. */
    public static boolean connectsByOAuth(Tool tool) {
        return OAuthTool.of(tool).isPresent();
    }

    /**
     * A new flow for {@code admin} (admin or owner of the workspace in the read model, else 403; the decision stream
     * checks again when the token is stored). Everything the callback will need is checked first (503 when OAuth, the
     * tool's app or secret storage is not configured), so an admin is never sent to consent for nothing.
     *
     * @param baseUrl     the gateway's public base URL (the callback is under it)
     * @param fromConsole whether the callback sends the browser back to the console's tools page
     */
    public Mono<Started> start(AuthenticatedUser admin, UUID workspaceId, Tool tool, String baseUrl, boolean fromConsole) {
        return Blocking.call(() -> started(admin, workspaceId, tool, baseUrl, fromConsole));
    }

    private Started started(AuthenticatedUser admin, UUID workspaceId, Tool tool, String baseUrl, boolean fromConsole) {
        OAuthTool oauth = OAuthTool.of(tool).orElseThrow(() -> ApiException.badRequest(OAuthTool.ONLY_THESE));
        OAuthClientProperties app = configuration.requireReady(oauth);
        if (!roles.administers(workspaceId, admin.userId())) {
            throw ApiException.forbidden(ErrorMessages.ADMIN_REQUIRED);
        }
        String redirectUri = baseUrl + oauth.callbackPath();
        // the flow belongs to this browser: a random cookie value, whose hash the sealed state binds
        String browser = OAuthBrowserBinding.newValue();
        OAuthState state = new OAuthState(workspaceId, oauth, admin.userId(), admin.email(), UUID.randomUUID().toString(),
                redirectUri, clock.instant().plus(properties.stateTtl()), OAuthBrowserBinding.binding(browser), fromConsole);
        return new Started(AuthorizeRedirect.of(app, redirectUri, states.sign(state)),
                OAuthBrowserBinding.cookie(oauth, browser, redirectUri, properties.stateTtl()));
    }

    /** The console's result for a failure of a verified flow's callback. */
    static Result resultOf(Throwable failure) {
        if (!(failure instanceof ApiException api)) {
            return failure instanceof DecisionServiceUnavailableException
                    || failure instanceof DecisionTimeoutException ? Result.UNAVAILABLE : Result.FAILED;
        }
        HttpStatus status = api.status();
        String text = api.getMessage() == null ? "" : api.getMessage();
        if (status == HttpStatus.CONFLICT) {
            return Result.REUSED;
        }
        if (status == HttpStatus.FORBIDDEN) {
            return Result.NOT_ADMIN;
        }
        if (status == HttpStatus.BAD_GATEWAY || status == HttpStatus.GATEWAY_TIMEOUT) {
            return Result.EXCHANGE_FAILED;
        }
        if (status == HttpStatus.SERVICE_UNAVAILABLE) {
            return Result.UNAVAILABLE;
        }
        if (text.startsWith("Consent was denied")) {
            return Result.DENIED;
        }
        if (text.contains("refused the authorization")) {
            return Result.REFUSED;
        }
        return Result.FAILED;
    }
}
