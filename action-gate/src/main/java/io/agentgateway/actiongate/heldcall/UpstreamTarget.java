package io.agentgateway.actiongate.heldcall;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpHeaders;

/**
 * Where a tool's held HTTP requests go: a base URL, and headers the gateway adds itself (the tool's
 * stored credential, for instance), which override the held request's own ({@link #applyTo}).
 */
public record UpstreamTarget(URI baseUrl, Map<String, String> headers) {

    public UpstreamTarget {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    /**
     * The base URL followed by the held request's path and query, exactly as held (already
     * percent-encoded: the proxy's canonical path and the agent's query; nothing is decoded or encoded again).
     *
     * @throws IllegalArgumentException when the path is not an absolute path or the result is no URI
     */
    public URI resolve(String path, String query) {
        if (path == null || !path.startsWith("/") || path.startsWith("//")) {
            throw new IllegalArgumentException("the held request's path must start with a single /");
        }
        String base = baseUrl.toString();
        String trimmed = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        return URI.create(trimmed + path + (query == null || query.isEmpty() ? "" : "?" + query));
    }

    /**
     * Sets the gateway's headers over the request's own ({@code sent} holds the agent's already), but for an
     * {@code Accept} that stays within the vendor tree of the gateway's own vendor media type: when the
     * gateway asks for {@code application/vnd.github.v3+json}, an agent's {@code application/vnd.github.v3.raw},
     * {@code .diff}, {@code .patch}, {@code .html} or {@code .full+json} is the same API in another format
     * (octokit's {@code mediaType: {format}}) and is sent as it is. Any other {@code Accept} (none, {@code *}/{@code *},
     * {@code application/json}, another vendor's type) gets the gateway's.
     */
    public void applyTo(HttpHeaders sent) {
        headers.forEach((name, value) -> {
            if (!(name.equalsIgnoreCase(HttpHeaders.ACCEPT) && withinVendorTree(value, sent.get(HttpHeaders.ACCEPT)))) {
                sent.set(name, value);
            }
        });
    }

    /** Whether every media range of the agent's {@code Accept} is in the vendor tree of {@code gatewayAccept}. */
    static boolean withinVendorTree(String gatewayAccept, List<String> agentAccept) {
        String vendor = vendorTree(gatewayAccept);
        if (vendor == null || agentAccept == null || agentAccept.isEmpty()) {
            return false;
        }
        for (String value : agentAccept) {
            for (String range : value.split(",")) {
                String type = range.strip().toLowerCase(Locale.ROOT);
                if (!type.startsWith(vendor) || type.length() == vendor.length()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** {@code application/vnd.github.} of {@code application/vnd.github.v3+json}; null for a type outside the vendor tree. */
    private static String vendorTree(String mediaType) {
        String type = mediaType.strip().toLowerCase(Locale.ROOT);
        String prefix = "application/vnd.";
        int dot = type.indexOf('.', prefix.length());
        int plus = type.indexOf('+', prefix.length());
        if (!type.startsWith(prefix) || dot < 0 || (plus >= 0 && plus < dot)) {
            return null;
        }
        return type.substring(0, dot + 1);
    }

    /** The header names only: the values carry the tool's credential, which must never reach a log line. */
    @Override
    public String toString() {
        return "UpstreamTarget[baseUrl=" + baseUrl + ", headers=" + headers.keySet() + "]";
    }
}
