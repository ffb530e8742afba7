package io.agentgateway.httpedge.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * One route per path, dispatching on the method; any other method gets a 405 JSON error with an
 * {@code Allow} header (functional routes alone would answer 404 for a wrong method). The route carries its methods
 * as the attribute {@link #METHODS}, so that what is served can be listed (the API description is checked against it).
 */
public final class MethodRoutes {
    /** The route attribute naming the methods a path serves (a {@code List<HttpMethod>}). */
    public static final String METHODS = MethodRoutes.class.getName() + ".methods";

    private final String pattern;
    private final Map<HttpMethod, HandlerFunction<ServerResponse>> handlers = new LinkedHashMap<>();

    private MethodRoutes(String pattern) {
        this.pattern = pattern;
    }

    public static MethodRoutes path(String pattern) {
        return new MethodRoutes(pattern);
    }

    public MethodRoutes get(HandlerFunction<ServerResponse> handler) {
        return on(HttpMethod.GET, handler);
    }

    public MethodRoutes post(HandlerFunction<ServerResponse> handler) {
        return on(HttpMethod.POST, handler);
    }

    public MethodRoutes put(HandlerFunction<ServerResponse> handler) {
        return on(HttpMethod.PUT, handler);
    }

    public MethodRoutes delete(HandlerFunction<ServerResponse> handler) {
        return on(HttpMethod.DELETE, handler);
    }

    private MethodRoutes on(HttpMethod method, HandlerFunction<ServerResponse> handler) {
        handlers.put(method, handler);
        return this;
    }

    public RouterFunction<ServerResponse> build() {
        Map<HttpMethod, HandlerFunction<ServerResponse>> byMethod = Map.copyOf(handlers);
        List<HttpMethod> allowed = List.copyOf(new ArrayList<>(handlers.keySet()));
        return RouterFunctions.route().route(RequestPredicates.path(pattern), request -> {
            HandlerFunction<ServerResponse> handler = byMethod.get(request.method());
            return handler != null ? handler.handle(request) : Mono.error(ApiException.methodNotAllowed(allowed));
        }).withAttribute(METHODS, allowed).build();
    }
}
