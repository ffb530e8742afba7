package io.agentgateway.httpedge.edge;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What the HTTP edge knows of the proxy's requests: their path ({@link #PATH_PREFIX}) and their body bound
 * {@code gateway.proxy.max-body-bytes}, which the edge applies to a declared length ({@link RequestHeaderChecks})
 * and the proxy to the body it reads. Here rather than with the proxy's other settings ({@code gateway.proxy.*},
 * {@code proxy.ProxyProperties}, the same prefix) so that the edge, shared by every product, knows no product.
 *
 * @param maxBodyBytes request bodies above this size are refused with 413. Every proxied request is
 *                     sealed into its EvaluateAction (it may need an approval), twice base64-encoded,
 *                     and must fit Kafka's default 1 MiB record: 384 KiB leaves room for that
 */
@ConfigurationProperties("gateway.proxy")
public record ProxyRequestProperties(@DefaultValue("393216") int maxBodyBytes) {

    /** The proxy's paths: {@code /functions/v1/gateway-proxy/<tool>/<upstream path>}. */
    public static final String PATH_PREFIX = "/functions/v1/gateway-proxy/";

    public ProxyRequestProperties {
        if (maxBodyBytes <= 0) {
            throw new IllegalArgumentException("gateway.proxy.max-body-bytes must be positive");
        }
    }
}
