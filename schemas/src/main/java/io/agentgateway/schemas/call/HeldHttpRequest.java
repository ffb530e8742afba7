package io.agentgateway.schemas.call;

import io.agentgateway.schemas.HeldCallKind;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A proxied HTTP request, held as the agent sent it: sent once, to the tool's upstream, after approval.
 *
 * @param path        the upstream path, starting with {@code /}, as received (still percent-encoded)
 * @param query       the raw query string without {@code ?}, or null
 * @param headers     the request headers to forward (names in lower case), each with its values in order;
 *                    the entry point leaves out hop-by-hop headers and the agent's own credentials
 * @param bodyBase64  the body bytes in base64, or null for none
 */
public record HeldHttpRequest(String method, String path, String query, Map<String, List<String>> headers,
                              String bodyBase64) implements HeldCall {

    public HeldHttpRequest {
        // sorted and copied: the JSON (and so what gets sealed) is the same for the same headers
        TreeMap<String, List<String>> sorted = new TreeMap<>();
        if (headers != null) {
            headers.forEach((name, values) -> sorted.put(name, values == null ? List.of() : List.copyOf(values)));
        }
        headers = Collections.unmodifiableMap(sorted);
    }

    @Override
    public HeldCallKind kind() {
        return HeldCallKind.HTTP_REQUEST;
    }

    /** The body bytes (empty for none). */
    public byte[] body() {
        return bodyBase64 == null ? new byte[0] : Base64.getDecoder().decode(bodyBase64);
    }
}
