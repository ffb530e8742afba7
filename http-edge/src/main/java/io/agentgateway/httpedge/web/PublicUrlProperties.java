package io.agentgateway.httpedge.web;

import io.agentgateway.gatewayconfig.PublicBaseUrls;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code gateway.public-base-url}: the address upstreams and agents reach this service at (spec
 * "{base_url}"), e.g. {@code https://gateway.example.com}, used for the webhook payload URLs shown in
 * the tool settings. Unset: the address the admin's own request reached the ingress at. Checked and
 * normalized by {@link PublicBaseUrls}, the rule the notifier's review links follow too.
 */
@ConfigurationProperties("gateway")
public record PublicUrlProperties(String publicBaseUrl) {

    public PublicUrlProperties {
        publicBaseUrl = PublicBaseUrls.normalized(publicBaseUrl, "gateway.public-base-url");
    }
}
