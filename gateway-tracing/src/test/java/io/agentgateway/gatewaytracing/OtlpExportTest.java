package io.agentgateway.gatewaytracing;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The SDK as the {@code OTEL_*} settings make it (here as the equivalent {@code otel.*} system properties): with only
 * an endpoint given, spans go over OTLP/HTTP protobuf (the bundled JDK sender's protocol) to a real receiver, and are
 * flushed when the tracing is closed.
 */
class OtlpExportTest {
    private static final List<String> PROPERTIES = List.of("otel.exporter.otlp.endpoint", "otel.service.name");
    private HttpServer receiver;

    @AfterEach
    void stop() {
        PROPERTIES.forEach(System::clearProperty);
        if (receiver != null) {
            receiver.stop(0);
        }
    }

    @Test
    void spansAreExportedOverOtlpHttpToTheConfiguredEndpoint() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        receiver.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
                        + exchange.getRequestHeaders().getFirst("Content-Type") + " " + body.readAllBytes().length);
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        System.setProperty("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + receiver.getAddress().getPort());

        try (GatewayTracing tracing = GatewayTracing.fromEnvironment("gateway-test", false)) {
            assertThat(tracing.enabled()).isTrue();
            tracing.tracer().spanBuilder("decide EvaluateAction").startSpan().end();
        }

        assertThat(received).singleElement().satisfies(request -> assertThat(request)
                .startsWith("POST /v1/traces application/x-protobuf").doesNotEndWith(" 0"));
    }
}
