package io.agentgateway.benchmark.load;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * The HTTP floor: a server that reads the request and answers 200 with a small JSON body, nothing
 * else (what an nginx {@code return 200} measures), on Reactor Netty as the ingress is, on a loopback
 * port and an event loop of its own. The load generator calls it exactly as it calls the gateway, so the
 * difference between the two is the gateway's own work, not HTTP's or the client's.
 */
public final class HttpFloorServer implements AutoCloseable {
    private static final byte[] ANSWER = "{\"ok\":true,\"decision\":\"allow\"}".getBytes(StandardCharsets.UTF_8);

    private final LoopResources loop = LoopResources.create("bench-http-floor", 1, true);
    private final DisposableServer server;

    public HttpFloorServer() {
        server = HttpServer.create().host("127.0.0.1").port(0).runOn(loop)
                .handle((request, response) -> request.receive().then(Mono.defer(() -> response.status(HttpResponseStatus.OK)
                        .header(HttpHeaderNames.CONTENT_TYPE, "application/json")
                        .header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(ANSWER.length))
                        .sendByteArray(Mono.just(ANSWER)).then())))
                .bindNow(Duration.ofSeconds(10));
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.port();
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
        loop.disposeLater().block(Duration.ofSeconds(5));
    }
}
