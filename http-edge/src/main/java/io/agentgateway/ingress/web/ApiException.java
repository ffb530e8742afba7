package io.agentgateway.ingress.web;

import java.util.List;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;

/**
 * An error the client is meant to see: the status and the {@code error} text of the JSON body.
 * No stack trace is captured: these are expected outcomes, not faults.
 */
public class ApiException extends RuntimeException {
    private final HttpStatus status;
    private final List<HttpMethod> allowedMethods;

    public ApiException(HttpStatus status, String message) {
        this(status, message, List.of());
    }

    private ApiException(HttpStatus status, String message, List<HttpMethod> allowedMethods) {
        super(message, null, false, false);
        this.status = status;
        this.allowedMethods = allowedMethods;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, message);
    }

    public static ApiException unauthorized(String message) {
        return new ApiException(HttpStatus.UNAUTHORIZED, message);
    }

    public static ApiException forbidden(String message) {
        return new ApiException(HttpStatus.FORBIDDEN, message);
    }

    public static ApiException notFound(String message) {
        return new ApiException(HttpStatus.NOT_FOUND, message);
    }

    public static ApiException methodNotAllowed(List<HttpMethod> allowed) {
        return new ApiException(HttpStatus.METHOD_NOT_ALLOWED, ErrorMessages.METHOD_NOT_ALLOWED, List.copyOf(allowed));
    }

    public HttpStatus status() {
        return status;
    }

    /** For 405: the methods the path accepts, sent in the {@code Allow} header. */
    public List<HttpMethod> allowedMethods() {
        return allowedMethods;
    }
}
