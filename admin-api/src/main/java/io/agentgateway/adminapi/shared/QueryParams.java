package io.agentgateway.adminapi.shared;

import io.agentgateway.httpedge.web.ApiException;
import org.springframework.web.reactive.function.server.ServerRequest;

/** Query-parameter reading shared by the admin list endpoints, so that they answer bad input alike. */
public final class QueryParams {
    private QueryParams() {}

    /** A query parameter; an empty value counts as absent (null). */
    public static String param(ServerRequest request, String name) {
        return request.queryParam(name).filter(value -> !value.isEmpty()).orElse(null);
    }

    /** A page size of 1..max, {@code fallback} when absent; anything else is a 400 with {@link #limitMessage}. */
    public static int limit(String text, int fallback, int max) {
        if (text == null) {
            return fallback;
        }
        try {
            int limit = Integer.parseInt(text);
            if (limit >= 1 && limit <= max) {
                return limit;
            }
        } catch (NumberFormatException notANumber) {
            // the same answer as a number out of range
        }
        throw ApiException.badRequest(limitMessage(max));
    }

    public static String limitMessage(int max) {
        return "limit must be an integer between 1 and " + max;
    }
}
