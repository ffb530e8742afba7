package io.agentgateway.toolproxy;

import io.agentgateway.egress.EgressClients;
import io.agentgateway.egress.EgressRefusedException;
import io.agentgateway.httpedge.web.PublicBaseUrl;
import io.agentgateway.actiongate.heldcall.UpstreamTarget;
import io.agentgateway.httpedge.web.ApiException;
import io.netty.channel.ChannelOption;
import io.netty.handler.timeout.ReadTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * Sends an allowed request to its upstream, to {@code <base URL><canonical path>?<query as received>}
 * (the very target that was classified), and streams the answer back: status, headers (hop-by-hop
 * ones left out, the upstream's own URLs in {@code Link}/{@code Location}/{@code Content-Location}
 * turned into the gateway's, see {@link UpstreamUrls}) and body as they come, byte for byte (no
 * decompression, no decoding, no buffering of the response). The client is Reactor Netty's, on the ingress's own event loops, behind WebClient;
 * its automatic retry is off, so a request is sent at most once.
 *
 * <p>Every address connected to passes the egress policy first (and the request carries the hop marker):
 * a refused address is 502 saying so, the address and rule logged (WARN) under the correlation id.
 * No connection (refused, unknown host, connect timeout, reset) is 502; no status and headers
 * within {@code gateway.proxy.upstream-timeout} is 504. Once the upstream's status is sent to the
 * agent it cannot change: a failure later cuts the body short.
 */
@Component
class UpstreamForwarder {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(UpstreamForwarder.class);
    static final String AUDIT_HEADER = "X-Gateway-Audit-Log-Id";

    private final WebClient client;
    private final Duration timeout;
    private final PublicBaseUrl gatewayBase;

    UpstreamForwarder(ReactorResourceFactory resources, ProxyProperties properties, PublicBaseUrl gatewayBase, EgressClients egress) {
        this.gatewayBase = gatewayBase;
        this.client = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(resources, http -> egress.apply(http)
                        .disableRetry(true)
                        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) properties.connectTimeout().toMillis())
                        .responseTimeout(properties.upstreamTimeout())))
                .filter(egress.spans("proxy"))
                .build();
        this.timeout = properties.upstreamTimeout();
    }

    /**
     * @param agentUri the URI the agent's request came in on: the gateway's address, unless
     *                 {@code gateway.public-base-url} names it
     */
    Mono<ServerResponse> forward(String toolName, URI agentUri, UpstreamTarget target, HttpMethod method, UpstreamPath path,
                                 Map<String, List<String>> headers, byte[] body, String auditLogId) {
        return Mono.defer(() -> {
            URI upstreamUri = target.resolve(path.canonical(), path.query());
            UpstreamUrls urls = new UpstreamUrls(target.baseUrl(), upstreamUri,
                    gatewayBase.of(agentUri) + GatewayProxyHandler.PREFIX + toolName);
            return client.method(method)
                    .uri(upstreamUri)
                    .headers(sent -> {
                        headers.forEach(sent::put);
                        target.applyTo(sent);
                    })
                    .body(body.length == 0 ? BodyInserters.empty() : BodyInserters.fromValue(body))
                    .retrieve()
                    // every status is the upstream's answer to pass on, not an error of ours
                    .onStatus(status -> true, response -> Mono.empty())
                    .toEntityFlux(DataBuffer.class)
                    // a second guard over the client's own response timeout, slightly later
                    .timeout(timeout.plusMillis(500))
                    .onErrorMap(failure -> upstreamError(toolName, failure))
                    .flatMap(entity -> ServerResponse.status(entity.getStatusCode())
                            .headers(agent -> {
                                ProxyHeaders.copyDownstream(entity.getHeaders(), agent, urls);
                                if (auditLogId != null) {
                                    agent.set(AUDIT_HEADER, auditLogId);
                                }
                            })
                            .body(BodyInserters.fromDataBuffers(entity.getBody())));
        }).onErrorMap(IllegalArgumentException.class, failure -> upstreamError(toolName, failure));
    }

    private Throwable upstreamError(String toolName, Throwable failure) {
        if (failure instanceof ApiException) {
            return failure;
        }
        EgressRefusedException refused = EgressRefusedException.in(failure);
        if (refused != null) {
            log.warn("proxy: the {} upstream was not connected to: {}", toolName, refused.rule());
            return new ApiException(HttpStatus.BAD_GATEWAY, "The " + toolName
                    + " upstream's address is refused by the gateway's egress policy; an operator allows it with gateway.egress.allow");
        }
        if (failure instanceof TimeoutException || hasCause(failure, ReadTimeoutException.class)) {
            return new ApiException(HttpStatus.GATEWAY_TIMEOUT,
                    "The " + toolName + " upstream did not answer within " + timeout.toMillis() + " ms");
        }
        if (failure instanceof WebClientRequestException || failure instanceof IllegalArgumentException) {
            return new ApiException(HttpStatus.BAD_GATEWAY, "The " + toolName + " upstream could not be reached");
        }
        return failure;
    }

    private static boolean hasCause(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }
}
