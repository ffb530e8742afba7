package io.agentgateway.ingress.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code gateway.public-base-url}: the address upstreams and agents reach this service at (spec
 * "{base_url}"), e.g. {@code https://gateway.example.com}, used for the webhook payload URLs shown in
 * the tool settings. Unset: the address the admin's own request reached the ingress at.
 */
@ConfigurationProperties("gateway")
public record PublicUrlProperties(String publicBaseUrl) {

    public PublicUrlProperties {
        if (publicBaseUrl != null && !publicBaseUrl.isBlank()) {
            publicBaseUrl = validated(publicBaseUrl.strip());
        } else {
            publicBaseUrl = null;
        }
    }

    private static String validated(String text) {
        String message = "gateway.public-base-url must be an absolute http or https URL without query or fragment";
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null
                    || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new IllegalArgumentException(message);
            }
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(message, e);
        }
        return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }
}
