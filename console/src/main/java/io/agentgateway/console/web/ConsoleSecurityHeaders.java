package io.agentgateway.console.web;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The console's response headers, on every answer of its paths (errors included): a strict Content-Security-Policy
 * (our own scripts and styles only, nothing inline, no framing, no base or form targets elsewhere), no MIME sniffing,
 * no referrer (a URL with an approval id never leaves), no framing for old browsers either.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
public class ConsoleSecurityHeaders implements WebFilter {
    public static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
            + "form-action 'self'";

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (ConsolePaths.isConsole(exchange.getRequest().getPath().pathWithinApplication().value())) {
            HttpHeaders headers = exchange.getResponse().getHeaders();
            headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("Referrer-Policy", "no-referrer");
            headers.set("X-Frame-Options", "DENY");
            headers.set("Cross-Origin-Opener-Policy", "same-origin");
            headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
        }
        return chain.filter(exchange);
    }
}
