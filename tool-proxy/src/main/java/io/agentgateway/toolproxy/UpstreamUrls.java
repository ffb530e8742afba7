package io.agentgateway.toolproxy;

import java.net.URI;
import java.util.Locale;

/**
 * Keeps an agent's follow-up requests on the gateway: the upstream's URLs in the {@code Link},
 * {@code Location} and {@code Content-Location} response headers that point under the connection's
 * base URL become the same URL under the gateway's own proxy address for the tool
 * ({@code <gateway base>/functions/v1/gateway-proxy/<tool>}). Without it a client that follows them
 * ({@code octokit.paginate}, a redirect) would call the upstream directly with the agent's key, with no
 * decision and no audit. Relative references are resolved against the URL the request was sent to
 * first. Anything else (another host, another scheme, a path beside the base, an unparsable value)
 * passes unchanged.
 */
final class UpstreamUrls {
    private final String scheme;
    private final String host;
    private final int port;
    private final String basePath;
    private final URI requested;
    private final String gatewayToolBase;

    /**
     * @param upstreamBase    the connection's base URL
     * @param requested       the URL the request was sent to (relative references resolve against it)
     * @param gatewayToolBase the gateway's proxy address for the tool, without a trailing slash
     */
    UpstreamUrls(URI upstreamBase, URI requested, String gatewayToolBase) {
        this.scheme = upstreamBase.getScheme() == null ? "" : upstreamBase.getScheme().toLowerCase(Locale.ROOT);
        this.host = upstreamBase.getHost() == null ? "" : upstreamBase.getHost();
        this.port = effectivePort(scheme, upstreamBase.getPort());
        String path = upstreamBase.getRawPath() == null ? "" : upstreamBase.getRawPath();
        this.basePath = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        this.requested = requested;
        this.gatewayToolBase = gatewayToolBase;
    }

    /** A {@code Location} or {@code Content-Location} value: one URI reference. */
    String rewriteReference(String value) {
        String trimmed = value.strip();
        URI resolved;
        try {
            resolved = resolve(trimmed);
        } catch (IllegalArgumentException e) {
            return value;
        }
        if (!sameOrigin(resolved)) {
            return value;
        }
        String path = resolved.getRawPath() == null ? "" : resolved.getRawPath();
        if (!(basePath.isEmpty() || path.equals(basePath) || path.startsWith(basePath + "/"))) {
            return value;
        }
        StringBuilder rewritten = new StringBuilder(gatewayToolBase).append(path, basePath.length(), path.length());
        if (resolved.getRawQuery() != null) {
            rewritten.append('?').append(resolved.getRawQuery());
        }
        if (resolved.getRawFragment() != null) {
            rewritten.append('#').append(resolved.getRawFragment());
        }
        return rewritten.toString();
    }

    /**
     * A {@code Link} value (RFC 8288): every {@code <target>} is rewritten as a reference, parameters
     * (quoted strings included) pass as they are.
     */
    String rewriteLink(String value) {
        StringBuilder out = null;
        int copied = 0;
        boolean quoted = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == '<') {
                int close = value.indexOf('>', i + 1);
                if (close < 0) {
                    break;
                }
                String target = value.substring(i + 1, close);
                String rewritten = rewriteReference(target);
                if (!rewritten.equals(target)) {
                    if (out == null) {
                        out = new StringBuilder(value.length() + 64);
                    }
                    out.append(value, copied, i + 1).append(rewritten);
                    copied = close;
                }
                i = close;
            }
        }
        return out == null ? value : out.append(value, copied, value.length()).toString();
    }

    /** RFC 3986 5.2 where {@link URI#resolve} (RFC 2396) differs: a query-only or empty reference keeps the base's path. */
    private URI resolve(String reference) {
        if (reference.isEmpty() || reference.charAt(0) == '?') {
            String base = requested.toString();
            int cut = base.indexOf(reference.isEmpty() ? '#' : '?');
            return URI.create((cut < 0 ? base : base.substring(0, cut)) + reference);
        }
        return requested.resolve(reference);
    }

    private boolean sameOrigin(URI uri) {
        String otherScheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        return otherScheme.equals(scheme) && host.equalsIgnoreCase(uri.getHost() == null ? "" : uri.getHost())
                && effectivePort(otherScheme, uri.getPort()) == port;
    }

    private static int effectivePort(String scheme, int port) {
        if (port >= 0) {
            return port;
        }
        return switch (scheme) {
            case "http" -> 80;
            case "https" -> 443;
            default -> -1;
        };
    }
}
