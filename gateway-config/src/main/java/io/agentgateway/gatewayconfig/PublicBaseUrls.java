package io.agentgateway.gatewayconfig;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The address people and upstreams reach the gateway at ({@code gateway.public-base-url} of the ingress,
 * {@code gateway.notifier.public-base-url} of the notifier): an absolute http(s) URL without query or fragment,
 * kept without trailing slashes so that a path can be appended to it. One rule for every setting of this kind.
 */
public final class PublicBaseUrls {
    private PublicBaseUrls() {}

    /**
     * @param text    the configured value; null or blank: not configured
     * @param setting the setting's name, for the message
     * @return the URL without surrounding white space and trailing slashes, or null when not configured
     * @throws IllegalArgumentException naming {@code setting} when the value is not such a URL
     */
    public static String normalized(String text, String setting) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String url = text.strip();
        String message = setting + " must be an absolute http or https URL without query or fragment";
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null
                    || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new IllegalArgumentException(message);
            }
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(message, e);
        }
        int end = url.length();
        while (end > 0 && url.charAt(end - 1) == '/') {
            end--;
        }
        return url.substring(0, end);
    }
}
