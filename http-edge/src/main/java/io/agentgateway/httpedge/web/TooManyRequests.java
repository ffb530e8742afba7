package io.agentgateway.httpedge.web;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** 429 with {@code Retry-After}: a fair-use limit was reached; the caller may try again after that many seconds. */
public class TooManyRequests extends ApiException {
    private final long retryAfterSeconds;

    public TooManyRequests(String message, long retryAfterSeconds) {
        super(HttpStatus.TOO_MANY_REQUESTS, message);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    HttpHeaders headers() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        return headers;
    }
}
