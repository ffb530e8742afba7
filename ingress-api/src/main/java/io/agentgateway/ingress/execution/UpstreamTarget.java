package io.agentgateway.ingress.execution;

import java.net.URI;
import java.util.Map;

/**
 * Where a tool's held HTTP requests go: a base URL, and headers the gateway adds itself (the tool's
 * stored credential, for instance), which override the held request's own.
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

    /** The header names only: the values carry the tool's credential, which must never reach a log line. */
    @Override
    public String toString() {
        return "UpstreamTarget[baseUrl=" + baseUrl + ", headers=" + headers.keySet() + "]";
    }
}
