package io.agentgateway.httpedge.edge;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.http.*}: how long the HTTP server waits for a client. A client that sends its request
 * slowly holds a connection (and its buffers) for as long as it is let; these bound every phase.
 *
 * @param headerTimeout   from the first byte of a request to the end of its headers (then 408 and the
 *                        connection is closed): a client dribbling its headers is cut off
 * @param bodyReadTimeout longest pause between two reads of a request body (then 408 and closed)
 * @param bodyTimeout     from the end of the headers to the end of the body (then 408 and closed)
 * @param idleTimeout     a kept-alive connection with no request in progress is closed after this
 */
@ConfigurationProperties("gateway.http")
public record HttpEdgeProperties(
        @DefaultValue("PT10S") Duration headerTimeout,
        @DefaultValue("PT10S") Duration bodyReadTimeout,
        @DefaultValue("PT30S") Duration bodyTimeout,
        @DefaultValue("PT60S") Duration idleTimeout) {

    public HttpEdgeProperties {
        positive(headerTimeout, "header-timeout");
        positive(bodyReadTimeout, "body-read-timeout");
        positive(bodyTimeout, "body-timeout");
        positive(idleTimeout, "idle-timeout");
    }

    private static void positive(Duration value, String name) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException("gateway.http." + name + " must be positive");
        }
    }
}
