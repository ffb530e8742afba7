package io.agentgateway.httpedge.web;

import java.time.Duration;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * One product's routes served as the ingress serves them, for that product's fast handler tests (http-edge's test-jar):
 * behind the edge's correlation ids ({@link CorrelationIds}) and with its JSON error body
 * ({@link JsonErrorWebExceptionHandler}, in a route's own {@link ErrorDialect} when one is given), on a real Netty
 * server on loopback, since the error handler reads the connection under a response (a mock server has none). The
 * handler's services are the test's to stub.
 */
public final class EdgeTestServer implements AutoCloseable {
    private final DisposableServer server;
    private final WebTestClient client;

    private EdgeTestServer(DisposableServer server) {
        this.server = server;
        this.client = WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + server.port())
                .responseTimeout(Duration.ofSeconds(10)).build();
    }

    public static EdgeTestServer serve(RouterFunction<ServerResponse> routes, ErrorDialect... dialects) {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        for (int i = 0; i < dialects.length; i++) {
            beans.registerSingleton("errorDialect" + i, dialects[i]);
        }
        HttpHandler handler = WebHttpHandlerBuilder.webHandler(RouterFunctions.toWebHandler(routes))
                .filter(new CorrelationIds())
                .exceptionHandler(new JsonErrorWebExceptionHandler(beans.getBeanProvider(ErrorDialect.class)))
                .build();
        return new EdgeTestServer(HttpServer.create().host("127.0.0.1").port(0)
                .handle(new ReactorHttpHandlerAdapter(handler)).bindNow());
    }

    /** A client of this server. */
    public WebTestClient client() {
        return client;
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
