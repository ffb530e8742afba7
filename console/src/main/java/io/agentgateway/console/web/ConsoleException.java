package io.agentgateway.console.web;

import io.agentgateway.httpedge.web.ApiException;
import org.springframework.http.HttpStatus;

/** A refusal the console answers with a page (or a fragment) saying why, never a stack trace. */
public class ConsoleException extends RuntimeException {
    private final HttpStatus status;

    public ConsoleException(HttpStatus status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public HttpStatus status() {
        return status;
    }

    public static ConsoleException notFound() {
        return new ConsoleException(HttpStatus.NOT_FOUND, "There is nothing here, or it belongs to a workspace you cannot read.");
    }

    /**
     * The failure as the page says it: an admin service's 404 (no such workspace or thing) in the console's own words
     * ({@link #notFound()}, as for a workspace the user cannot read); any other failure as it is.
     */
    public static Throwable notFoundOf(Throwable failure) {
        return failure instanceof ApiException api && api.status() == HttpStatus.NOT_FOUND ? notFound() : failure;
    }

    public static ConsoleException badRequest(String message) {
        return new ConsoleException(HttpStatus.BAD_REQUEST, message);
    }

    public static ConsoleException forbidden(String message) {
        return new ConsoleException(HttpStatus.FORBIDDEN, message);
    }

    /** No session: pages go to the sign-in page, htmx requests and POSTs get 401. */
    public static final class SignInRequired extends ConsoleException {
        public SignInRequired() {
            super(HttpStatus.UNAUTHORIZED, "Sign in to use the console.");
        }
    }
}
