package io.agentgateway.console.web;

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
