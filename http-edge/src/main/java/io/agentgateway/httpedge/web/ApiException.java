package io.agentgateway.httpedge.web;

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
    private final String field;

    public ApiException(HttpStatus status, String message) {
        this(status, message, List.of(), null);
    }

    private ApiException(HttpStatus status, String message, List<HttpMethod> allowedMethods, String field) {
        super(message, null, false, false);
        this.status = status;
        this.allowedMethods = allowedMethods;
        this.field = field;
    }

    public static ApiException badRequest(String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, message);
    }

    /**
     * A 400 about one field of a request body: the text is the API's as ever, and {@link #field()} says which field
     * it is about, so that a form (the console) shows it at that field.
     *
     * @param field the field's path in the body as its texts name it: {@code name}, {@code match.tools},
     *              {@code config.repos}, {@code policies[2].condition}
     */
    public static ApiException badField(String field, String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, message, List.of(), field);
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
        return new ApiException(HttpStatus.METHOD_NOT_ALLOWED, ErrorMessages.METHOD_NOT_ALLOWED, List.copyOf(allowed), null);
    }

    public HttpStatus status() {
        return status;
    }

    /** The body field a 400 is about ({@link #badField}), or null when it is about no one field. */
    public String field() {
        return field;
    }

    /** The same error about the same field under a prefix: {@code policies[2].} + {@code name}. */
    public ApiException under(String fieldPrefix, String messagePrefix) {
        return new ApiException(status, messagePrefix + getMessage(), allowedMethods, field == null ? null : fieldPrefix + field);
    }

    /** For 405: the methods the path accepts, sent in the {@code Allow} header. */
    public List<HttpMethod> allowedMethods() {
        return allowedMethods;
    }
}
