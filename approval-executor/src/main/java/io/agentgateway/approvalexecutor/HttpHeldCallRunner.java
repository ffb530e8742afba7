package io.agentgateway.approvalexecutor;

import io.agentgateway.egress.EgressClients;
import io.agentgateway.actiongate.heldcall.ExecutionResults;
import io.agentgateway.actiongate.heldcall.HeldCallContext;
import io.agentgateway.actiongate.heldcall.HeldCallRunner;
import io.agentgateway.actiongate.heldcall.HttpUpstreams;
import io.agentgateway.actiongate.heldcall.UpstreamTarget;
import io.agentgateway.schemas.HeldCallKind;
import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.call.HeldHttpRequest;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sends a held proxied HTTP request (method, path, query, headers, body) to its tool's upstream once,
 * and turns the response into the execution result: the body as text (cut at
 * {@code gateway.executor.max-result-bytes}), {@code httpStatus}, {@code contentType},
 * {@code truncated}, and {@code isError} for a status of 400 or more. Any answer, 5xx included, means
 * the call was executed; no answer (refused connection, timeout) is a failure.
 *
 * <p>The egress policy checks every address connected to (a refused one fails the execution, never sent);
 * the request carries the hop marker. Reactor Netty's automatic retry of a request whose connection closed early is switched off: a
 * retried request could reach the upstream twice. A bean of {@code ApprovalExecutorConfiguration}.
 */
public class HttpHeldCallRunner implements HeldCallRunner {
    /** Hop-by-hop and framing headers: the client sets its own; forwarding them would corrupt the request. */
    private static final Set<String> NOT_FORWARDED = Set.of("host", "content-length", "connection", "keep-alive",
            "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding",
            "upgrade", "expect");

    private final WebClient client;
    private final HttpUpstreams upstreams;
    private final ExecutorProperties properties;

    public HttpHeldCallRunner(ReactorResourceFactory resources, HttpUpstreams upstreams, ExecutorProperties properties,
                              EgressClients egress) {
        this.client = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(resources,
                        http -> egress.apply(http).disableRetry(true).responseTimeout(properties.httpTimeout())))
                .filter(egress.spans("held_call"))
                .build();
        this.upstreams = upstreams;
        this.properties = properties;
    }

    @Override
    public HeldCallKind kind() {
        return HeldCallKind.HTTP_REQUEST;
    }

    @Override
    public Mono<JsonNode> run(HeldCallContext context, HeldCall call) {
        return Mono.defer(() -> {
            HeldHttpRequest request = (HeldHttpRequest) call;
            UpstreamTarget target = upstreams.target(context)
                    .orElseThrow(() -> new IllegalStateException("no upstream is configured for the tool " + context.tool().wire()));
            URI uri = target.resolve(request.path(), request.query());
            HttpMethod method = HttpMethod.valueOf(request.method());
            byte[] body = request.body();
            WebClient.RequestBodySpec spec = client.method(method).uri(uri).headers(headers -> copyHeaders(request, target, headers));
            WebClient.RequestHeadersSpec<?> sending = body.length == 0 ? spec : spec.body(BodyInserters.fromValue(body));
            return sending.exchangeToMono(this::result);
        }).timeout(properties.httpTimeout());
    }

    private static void copyHeaders(HeldHttpRequest request, UpstreamTarget target, HttpHeaders headers) {
        request.headers().forEach((name, values) -> {
            if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                headers.put(name, values);
            }
        });
        target.applyTo(headers);
    }

    private Mono<JsonNode> result(ClientResponse response) {
        return response.bodyToFlux(DataBuffer.class)
                .reduce(new BoundedBody(properties.maxResultBytes()), BoundedBody::append)
                .map(body -> {
                    int status = response.statusCode().value();
                    ObjectNode result = ExecutionResults.text(body.text(), status >= 400);
                    result.put("httpStatus", status);
                    response.headers().contentType().ifPresent(type -> result.put("contentType", type.toString()));
                    result.put("truncated", body.truncated());
                    return result;
                });
    }

    /** The first {@code limit} bytes of a response body; the rest is read (the connection stays usable) and dropped. */
    private static final class BoundedBody {
        private final byte[] kept;
        private int length;
        private boolean truncated;

        BoundedBody(int limit) {
            this.kept = new byte[limit];
        }

        BoundedBody append(DataBuffer buffer) {
            try {
                int readable = buffer.readableByteCount();
                int take = Math.min(readable, kept.length - length);
                buffer.read(kept, length, take);
                length += take;
                truncated |= take < readable;
            } finally {
                DataBufferUtils.release(buffer);
            }
            return this;
        }

        /** Malformed or cut UTF-8 sequences become U+FFFD. */
        String text() {
            return new String(kept, 0, length, StandardCharsets.UTF_8);
        }

        boolean truncated() {
            return truncated;
        }
    }
}
