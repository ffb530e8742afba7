package io.agentgateway.adminapi.shared;

import io.agentgateway.backtest.EventLogTimeoutException;
import io.agentgateway.backtest.EventLogUnavailableException;
import io.agentgateway.httpedge.web.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import reactor.core.publisher.Mono;

/** The refusals several admin services answer alike, with their texts (docs/reference/admin-api.md). */
public final class AdminRefusals {
    public static final String WORKSPACE_NOT_FOUND = "Workspace not found";
    public static final String EVENT_LOG_UNAVAILABLE = "Event log unavailable";
    public static final String EVENT_LOG_TIMED_OUT = "Timed out reading the event log";
    private static final Logger log = LoggerFactory.getLogger(AdminRefusals.class);

    private AdminRefusals() {}

    /** 404 {@value #WORKSPACE_NOT_FOUND}: the read model has no such workspace. */
    public static ApiException workspaceNotFound() {
        return ApiException.notFound(WORKSPACE_NOT_FOUND);
    }

    /**
     * A read of the event log (a back-test, a policy test's recorded action) that failed for the log's sake: 503
     * {@value #EVENT_LOG_UNAVAILABLE} when Kafka does not answer, 504 {@value #EVENT_LOG_TIMED_OUT} when the read takes
     * too long; logged once with the request's correlation id.
     *
     * @param what what read it ({@code back-test}), for the log line
     */
    public static <T> Mono<T> eventLogRead(Mono<T> read, String correlationId, String what) {
        return read
                .onErrorMap(EventLogUnavailableException.class,
                        e -> failure(correlationId, what, HttpStatus.SERVICE_UNAVAILABLE, EVENT_LOG_UNAVAILABLE, e))
                .onErrorMap(EventLogTimeoutException.class,
                        e -> failure(correlationId, what, HttpStatus.GATEWAY_TIMEOUT, EVENT_LOG_TIMED_OUT, e));
    }

    private static ApiException failure(String correlationId, String what, HttpStatus status, String error,
                                        RuntimeException cause) {
        log.warn("[{}] {} failed with {}: {}", correlationId, what, status.value(), cause.getMessage());
        return new ApiException(status, error);
    }
}
