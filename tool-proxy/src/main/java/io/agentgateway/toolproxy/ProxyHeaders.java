package io.agentgateway.toolproxy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpHeaders;

/**
 * Which headers cross the proxy. The agent's credential ({@code Authorization}), its
 * {@code X-Agent-Id} and the hop-by-hop and framing headers stay behind on the way up (the gateway's
 * client frames the request itself and adds the tool's own credential); hop-by-hop headers stay
 * behind on the way down, and the upstream's own URLs in {@code Link}, {@code Location} and
 * {@code Content-Location} are turned into the gateway's ({@link UpstreamUrls}). Everything else passes
 * unchanged: rate-limit headers, {@code ETag}, content encoding.
 */
final class ProxyHeaders {
    /** RFC 9110 7.6.1 hop-by-hop headers, plus those the client or server sets for its own framing. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection",
            "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade");
    private static final Set<String> NOT_SENT_UP = Set.of("authorization", "x-agent-id", "host", "content-length",
            "expect", "cookie", "x-correlation-id");

    private ProxyHeaders() {}

    /** The agent's headers to send upstream, names in lower case, values in order. */
    static Map<String, List<String>> upstreamRequest(HttpHeaders agent) {
        Set<String> named = connectionNamed(agent);
        Map<String, List<String>> forwarded = new LinkedHashMap<>();
        agent.forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!HOP_BY_HOP.contains(lower) && !NOT_SENT_UP.contains(lower) && !named.contains(lower)) {
                forwarded.computeIfAbsent(lower, key -> new ArrayList<>()).addAll(values);
            }
        });
        return forwarded;
    }

    /** Copies the upstream's response headers for the agent, hop-by-hop ones left out, its URLs made the gateway's. */
    static void copyDownstream(HttpHeaders upstream, HttpHeaders agent, UpstreamUrls urls) {
        Set<String> named = connectionNamed(upstream);
        upstream.forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            // the gateway's own correlation id stays the one the agent sees
            if (!HOP_BY_HOP.contains(lower) && !named.contains(lower) && !lower.equals("x-correlation-id")) {
                agent.put(name, switch (lower) {
                    case "link" -> values.stream().map(urls::rewriteLink).toList();
                    case "location", "content-location" -> values.stream().map(urls::rewriteReference).toList();
                    default -> values;
                });
            }
        });
    }

    /** Headers a {@code Connection} header declares hop-by-hop (RFC 9110 7.6.1). */
    private static Set<String> connectionNamed(HttpHeaders headers) {
        List<String> connection = headers.get(HttpHeaders.CONNECTION);
        if (connection == null) {
            return Set.of();
        }
        Set<String> named = new HashSet<>();
        connection.forEach(value -> {
            for (String token : value.split(",")) {
                named.add(token.trim().toLowerCase(Locale.ROOT));
            }
        });
        return named;
    }
}
