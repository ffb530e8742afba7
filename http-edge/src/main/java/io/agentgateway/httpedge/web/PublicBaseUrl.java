package io.agentgateway.httpedge.web;

import java.net.URI;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * The spec's {@code {base_url}}: {@code gateway.public-base-url} when set, otherwise the scheme, host
 * and port the caller's request reached the ingress at (right for the embedded default and a direct
 * deployment; behind a proxy, set the key).
 */
@Component
public class PublicBaseUrl {
    private final String configured;

    public PublicBaseUrl(PublicUrlProperties properties) {
        this.configured = properties.publicBaseUrl();
    }

    public String of(ServerRequest request) {
        return of(request.uri());
    }

    /** @param requestUri the URI a request reached the ingress at */
    public String of(URI requestUri) {
        if (configured != null) {
            return configured;
        }
        return requestUri.getScheme() + "://" + requestUri.getRawAuthority();
    }
}
