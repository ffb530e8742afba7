package io.agentgateway.toolproxy;

import io.agentgateway.httpedge.web.ApiException;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

/**
 * The method a proxied request is classified and forwarded with is the one on its request line, and
 * nothing else. Only the methods REST and GraphQL APIs use cross the proxy: {@code TRACE} (an upstream
 * that echoes it would hand the agent the tool's credential), {@code CONNECT} and every other method are
 * 405 with an {@code Allow} header. A request that names a different method in a method-override header
 * is 400: upstreams that honour such a header would run a method the proxy did not classify. (The
 * {@code _method} query parameter is refused by {@link UpstreamPath}, a {@code _method} form field by
 * {@link ProxyRequestBody#refuseMethodField}.)
 */
final class ProxyMethods {
    static final List<HttpMethod> FORWARDED = List.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS,
            HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);
    static final List<String> OVERRIDE_HEADERS = List.of("X-HTTP-Method-Override", "X-Method-Override", "X-HTTP-Method");

    private ProxyMethods() {}

    /**
     * @return the request's method when the proxy forwards it
     * @throws ApiException 405 (with {@code Allow}) for another method, 400 for a method-override header
     */
    static HttpMethod require(HttpMethod method, HttpHeaders headers) {
        // compared by name, case-sensitively: a lower-case "get" is another method (RFC 9110 9.1)
        if (!FORWARDED.contains(method)) {
            throw ApiException.methodNotAllowed(FORWARDED);
        }
        for (String name : OVERRIDE_HEADERS) {
            if (headers.containsHeader(name)) {
                throw ApiException.badRequest("The proxy does not accept the " + name
                        + " header: send the request with the method itself");
            }
        }
        return method;
    }
}
