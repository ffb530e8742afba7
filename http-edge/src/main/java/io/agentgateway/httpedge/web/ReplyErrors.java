package io.agentgateway.httpedge.web;

import io.agentgateway.gatewayclient.DecisionServiceUnavailableException;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.Reply;
import org.springframework.http.HttpStatus;

/**
 * Maps the decision stream's reply statuses to HTTP: UNAUTHORIZED 401, FORBIDDEN 403, NOT_FOUND 404,
 * CONFLICT 409, INVALID 400, LIMITED 429, STALE 503 (the entry points adopt a stale answer's connection
 * and ask once more; one that is still stale was decided on nothing and fails closed). The stream's own
 * text is shown for 404, 409, 400 and 429 (it explains what was wrong with the request, or which
 * workspace limit refused it); 401 and 403 use the API's fixed texts.
 *
 * <p>LIMITED is 429 for every per-workspace limit (open approvals, API keys, policies, policy size,
 * repositories per connection, configuration size): the workspace is at capacity and the same request
 * succeeds once room is made (approvals reviewed or expired, keys revoked and past their grace period,
 * policies deleted) or the operator raises the limit, which is what 429 tells a client. 409 would say the
 * request contradicts the resource's state, which it does not.
 */
public final class ReplyErrors {
    private ReplyErrors() {}

    /**
     * The reply itself when it is OK, otherwise the matching {@link ApiException}.
     *
     * @param unauthorizedText the 401 text of the caller's kind of credential
     */
    public static Reply requireOk(Reply reply, String unauthorizedText) {
        if (reply.status() == ReplyStatus.OK) {
            return reply;
        }
        if (reply.status() == null) {
            throw new IllegalStateException("reply to command " + reply.commandId() + " has no status");
        }
        throw switch (reply.status()) {
            case UNAUTHORIZED -> ApiException.unauthorized(unauthorizedText);
            case FORBIDDEN -> ApiException.forbidden(ErrorMessages.ADMIN_REQUIRED);
            case NOT_FOUND -> new ApiException(HttpStatus.NOT_FOUND, textOr(reply, "Not found"));
            case CONFLICT -> new ApiException(HttpStatus.CONFLICT, textOr(reply, "Conflict"));
            case INVALID -> ApiException.badRequest(textOr(reply, "Invalid request"));
            // a command prepared from a tool connection that changed meanwhile, twice: nothing was decided
            case STALE -> new DecisionServiceUnavailableException("stale tool connection: " + reply.error());
            case LIMITED -> new ApiException(HttpStatus.TOO_MANY_REQUESTS, textOr(reply, "Workspace limit reached"));
            case OK -> throw new IllegalStateException("unreachable");
        };
    }

    /**
     * As {@link #requireOk} for an agent's request (evaluate-action, the proxy, the MCP gate): 401 {@code Invalid or
     * expired API key}, and a 403 shows the stream's text, which says why the key may not act so (an agent id the
     * key is not bound to).
     */
    public static Reply requireAgentOk(Reply reply) {
        if (reply.status() == ReplyStatus.FORBIDDEN) {
            throw ApiException.forbidden(textOr(reply, ErrorMessages.ADMIN_REQUIRED));
        }
        return requireOk(reply, ErrorMessages.INVALID_API_KEY);
    }

    private static String textOr(Reply reply, String fallback) {
        return reply.error() == null || reply.error().isBlank() ? fallback : reply.error();
    }
}
