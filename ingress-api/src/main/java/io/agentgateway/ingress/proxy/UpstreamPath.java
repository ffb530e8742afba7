package io.agentgateway.ingress.proxy;

import io.agentgateway.ingress.web.ApiException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The upstream part of a proxied request: the raw path after {@code /functions/v1/gateway-proxy/<tool>}
 * (forwarded exactly as received, still percent-encoded) and its decoded segments (for classifying).
 *
 * <p>Paths whose meaning an upstream could change by normalizing them are refused: a {@code .} or
 * {@code ..} segment, an empty segment, a backslash, or an encoded slash that would decode into a
 * dot segment. Otherwise {@code DELETE /repos/o/r/issues/../contents/x} would be classified by the
 * path as written and executed by the path as normalized (fail closed).
 */
record UpstreamPath(String raw, String query, List<String> segments) {
    private static final Pattern DOT_SEGMENT = Pattern.compile("(^|/)\\.{1,2}(/|$)");

    UpstreamPath {
        segments = List.copyOf(segments);
    }

    static UpstreamPath parse(String rawPath, String rawQuery) {
        if (rawPath == null || rawPath.isEmpty()) {
            rawPath = "/";
        }
        if (!rawPath.startsWith("/")) {
            throw ApiException.badRequest("The upstream path must start with /");
        }
        String decoded;
        try {
            decoded = URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("The upstream path is not validly percent-encoded");
        }
        if (decoded.contains("\\") || DOT_SEGMENT.matcher(decoded).find() || decoded.indexOf('\u0000') >= 0) {
            throw ApiException.badRequest("The upstream path must not contain '.' or '..' segments or backslashes");
        }
        // one trailing slash is how some clients write a collection; it names no extra segment
        // (the root "/" alone names none)
        String body = rawPath.length() > 1 && rawPath.endsWith("/") ? rawPath.substring(1, rawPath.length() - 1) : rawPath.substring(1);
        List<String> segments = new ArrayList<>();
        if (!body.isEmpty()) {
            for (String segment : body.split("/", -1)) {
                if (segment.isEmpty()) {
                    throw ApiException.badRequest("The upstream path must not contain empty segments");
                }
                segments.add(URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8));
            }
        }
        return new UpstreamPath(rawPath, rawQuery == null || rawQuery.isEmpty() ? null : rawQuery, segments);
    }

    /** The decoded segment at {@code index}, or null. */
    String segment(int index) {
        return index < segments.size() ? segments.get(index) : null;
    }
}
