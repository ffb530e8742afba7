package io.agentgateway.httpedge.web;

/** Error texts that several endpoints share; the texts are part of the API (spec section 7). */
public final class ErrorMessages {
    public static final String INVALID_API_KEY = "Invalid or expired API key";
    public static final String AUTHENTICATION_REQUIRED = "Authentication required";
    public static final String INVALID_TOKEN = "Invalid or expired token";
    public static final String AUTH_UNAVAILABLE = "Authentication service unavailable";
    public static final String ADMIN_REQUIRED = "Admin or owner role required";
    public static final String BODY_NOT_OBJECT = "Request body must be a JSON object";
    public static final String BODY_TOO_LARGE = "Request body too large";
    public static final String UNSUPPORTED_MEDIA_TYPE = "Content-Type must be application/json";
    public static final String UNAVAILABLE = "Decision service unavailable";
    public static final String TIMED_OUT = "Timed out waiting for a decision";
    public static final String INTERNAL = "Internal error";
    public static final String READ_MODEL_UNAVAILABLE = "Read model unavailable";
    public static final String NOT_FOUND = "Not found";
    public static final String METHOD_NOT_ALLOWED = "Method not allowed";
    public static final String MALFORMED_HEADER = "A request header is malformed";
    public static final String REQUEST_TIMEOUT = "The request was not received in time";

    private ErrorMessages() {}
}
