package io.agentgateway.ingress.web;

import io.agentgateway.ingress.gateway.DecisionServiceUnavailableException;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.Reply;
import org.springframework.http.HttpStatus;

/**
 * Maps the decision stream's reply statuses to HTTP: UNAUTHORIZED 401, FORBIDDEN 403, NOT_FOUND 404,
 * CONFLICT 409, INVALID 400, STALE 503 (the entry points adopt a stale answer's connection and ask once
 * more; one that is still stale was decided on nothing and fails closed). The stream's own text is shown for the last three (it explains what
 * was wrong with the request); 401 and 403 use the API's fixed texts.
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
            case OK -> throw new IllegalStateException("unreachable");
        };
    }

    private static String textOr(Reply reply, String fallback) {
        return reply.error() == null || reply.error().isBlank() ? fallback : reply.error();
    }
}
