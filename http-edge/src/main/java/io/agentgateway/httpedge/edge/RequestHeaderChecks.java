package io.agentgateway.httpedge.edge;

import io.agentgateway.gatewayclient.config.IngressProperties;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.httpedge.web.WebhookSetup;
import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The checks every request passes before any route sees it, so that one rule holds for every endpoint:
 * <ul>
 *   <li>{@code Content-Type}: given at most once and a valid media type, else 415 (400 when repeated).
 *       Whether the type suits the endpoint is the endpoint's business (JSON bodies: 415 for others);</li>
 *   <li>{@code Accept}: a valid list of media types, else 400; on the endpoints that answer only JSON, a
 *       list that admits no JSON is 406;</li>
 *   <li>a declared {@code Content-Length} above the endpoint's body limit is 413 at once, before a byte of
 *       the body is read (the error handler then closes the connection instead of reading the body).</li>
 * </ul>
 * Spring would otherwise throw {@link InvalidMediaTypeException} from deep inside a handler, a 500.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class RequestHeaderChecks implements WebFilter {
    static final String MALFORMED_CONTENT_TYPE = "Content-Type is not a valid media type";
    static final String REPEATED_CONTENT_TYPE = "Content-Type must be given once";
    static final String MALFORMED_ACCEPT = "Accept is not a valid list of media types";
    static final String NOT_ACCEPTABLE = "This endpoint answers application/json only; Accept admits no JSON";

    private final int maxBodyBytes;
    private final int maxProxyBodyBytes;

    public RequestHeaderChecks(IngressProperties ingress, ProxyRequestProperties proxy) {
        this.maxBodyBytes = ingress.maxBodyBytes();
        this.maxProxyBodyBytes = proxy.maxBodyBytes();
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        HttpHeaders headers = exchange.getRequest().getHeaders();
        String path = exchange.getRequest().getPath().pathWithinApplication().value();
        try {
            checkContentType(headers);
            checkAccept(headers, path);
            checkDeclaredLength(headers, path);
        } catch (ApiException refused) {
            return Mono.error(refused);
        }
        return chain.filter(exchange);
    }

    private static void checkContentType(HttpHeaders headers) {
        List<String> values = headers.get(HttpHeaders.CONTENT_TYPE);
        if (values == null || values.isEmpty()) {
            return;
        }
        if (values.size() > 1) {
            throw ApiException.badRequest(REPEATED_CONTENT_TYPE);
        }
        try {
            headers.getContentType();
        } catch (InvalidMediaTypeException e) {
            throw new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, MALFORMED_CONTENT_TYPE);
        }
    }

    private static void checkAccept(HttpHeaders headers, String path) {
        List<MediaType> accepted;
        try {
            accepted = headers.getAccept();
        } catch (IllegalArgumentException e) { // InvalidMediaTypeException, or a bad quality value
            throw ApiException.badRequest(MALFORMED_ACCEPT);
        }
        if (!accepted.isEmpty() && answersJsonOnly(path)
                && accepted.stream().noneMatch(type -> type.isCompatibleWith(MediaType.APPLICATION_JSON))) {
            throw new ApiException(HttpStatus.NOT_ACCEPTABLE, NOT_ACCEPTABLE);
        }
    }

    /**
     * The endpoints with JSON as their one representation. Not: the proxy (the upstream's answer), webhooks
     * (senders' Accept means nothing to us), the MCP gate (JSON or an event stream), the audit export (JSON
     * Lines or CSV by its {@code format}), back-tests (also a text table), the OAuth pages (browsers).
     */
    static boolean answersJsonOnly(String path) {
        if (path.startsWith("/admin/v1/")) {
            return !(path.endsWith("/audit-log/export") || path.endsWith("/backtests") || path.endsWith("/oauth/start"));
        }
        return path.equals("/functions/v1/evaluate-action") || path.equals("/functions/v1/kill-switch")
                || path.startsWith("/functions/v1/mcp-gate/status/");
    }

    private void checkDeclaredLength(HttpHeaders headers, String path) {
        long declared;
        try {
            declared = headers.getContentLength();
        } catch (NumberFormatException e) {
            // the HTTP codec refuses a malformed Content-Length before a request gets here
            throw ApiException.badRequest("Content-Length is not a number");
        }
        if (declared > limitFor(path)) {
            throw new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, ErrorMessages.BODY_TOO_LARGE);
        }
    }

    private long limitFor(String path) {
        if (WebhookSetup.isWebhookPath(path)) {
            // the webhook handler refuses it just as early, with its own text and rejection counter
            return Long.MAX_VALUE;
        }
        if (path.startsWith(ProxyRequestProperties.PATH_PREFIX)) {
            return maxProxyBodyBytes;
        }
        return maxBodyBytes;
    }
}
