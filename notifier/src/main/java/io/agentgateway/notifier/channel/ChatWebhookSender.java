package io.agentgateway.notifier.channel;

import io.agentgateway.egress.EgressClients;
import io.agentgateway.egress.EgressRefusedException;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.notification.NotificationRequested;
import io.agentgateway.schemas.secret.SecretBox;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.handler.timeout.ReadTimeoutException;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLHandshakeException;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * Posts a notification to a Slack-compatible incoming webhook: {@code {"text": "..."}}. The URL
 * arrives sealed and is opened only here, only for the request; it is a credential (whoever knows it
 * can post to the channel), so it never appears in a log line, an error message or a header.
 *
 * <p>The client is Reactor Netty's with the egress policy as its resolver: the webhook's address is checked
 * when connecting (a refused one is "not delivered", never sent) and the request carries the hop marker.
 * It runs on one event-loop thread of its own; {@link #send} blocks the caller (a listener thread) until
 * the answer. No redirect is followed and nothing is retried here (the dispatcher retries).
 */
public class ChatWebhookSender implements ChannelSender, AutoCloseable {
    private final SecretBox secretBox;
    private final HttpClient httpClient;
    private final LoopResources loops;
    private final Duration requestTimeout;
    private final Duration connectTimeout;
    private final ReviewLinks reviewLinks;
    private final GatewayTracing tracing;

    public ChatWebhookSender(SecretBox secretBox, Duration connectTimeout, Duration requestTimeout, EgressClients egress) {
        this(secretBox, connectTimeout, requestTimeout, ReviewLinks.pathsOnly(), egress);
    }

    public ChatWebhookSender(SecretBox secretBox, Duration connectTimeout, Duration requestTimeout, ReviewLinks reviewLinks,
                             EgressClients egress) {
        this.secretBox = Objects.requireNonNull(secretBox, "secretBox");
        this.reviewLinks = Objects.requireNonNull(reviewLinks, "reviewLinks");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
        this.tracing = egress.tracing();
        this.loops = LoopResources.create("chat-webhook", 1, true);
        this.httpClient = egress.apply(HttpClient.create(ConnectionProvider.newConnection()))
                .runOn(loops)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(connectTimeout.toMillis(), Integer.MAX_VALUE))
                .responseTimeout(requestTimeout)
                // a redirect would carry the message somewhere the workspace admin did not configure
                .followRedirect(false)
                .disableRetry(true);
    }

    @Override
    public void close() {
        loops.disposeLater().block(Duration.ofSeconds(5));
    }

    @Override
    public Channel channel() {
        return Channel.CHAT;
    }

    @Override
    public boolean appliesTo(NotificationRequested notification) {
        return notification.sealedChatWebhookUrl() != null && !notification.sealedChatWebhookUrl().isBlank();
    }

    @Override
    public void send(NotificationRequested notification) throws DeliveryFailedException {
        URI webhook = openWebhookUrl(notification.sealedChatWebhookUrl());
        byte[] body = GatewayJson.MAPPER.writeValueAsBytes(Map.of("text", NotificationText.chatText(notification, reviewLinks)));
        int status = post(webhook, body);
        if (status < 200 || status > 299) {
            throw DeliveryFailedException.notDelivered("chat webhook answered HTTP " + status);
        }
    }

    /** Only the kind of a failure is reported, never its message: messages can name the host or the URL. */
    private int post(URI webhook, byte[] body) throws DeliveryFailedException {
        Integer status;
        // the delivery span's trace context, only when the operator lets it go to upstreams (a chat service is one)
        Map<String, String> trace = new HashMap<>(2);
        tracing.injectUpstream(Context.current(), trace::put);
        try {
            status = httpClient
                    .headers(headers -> {
                        headers.set("Content-Type", "application/json; charset=utf-8");
                        trace.forEach(headers::set);
                    })
                    .post()
                    .uri(webhook)
                    .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)))
                    .responseSingle((response, content) -> content.then(Mono.just(response.status().code())))
                    .block(connectTimeout.plus(requestTimeout).plusSeconds(1));
        } catch (RuntimeException e) {
            throw failure(e);
        }
        if (status == null) {
            throw DeliveryFailedException.inDoubt("chat webhook: the connection closed without an answer");
        }
        return status;
    }

    private DeliveryFailedException failure(RuntimeException e) {
        if (Thread.currentThread().isInterrupted()) {
            return DeliveryFailedException.inDoubt("chat webhook: interrupted while waiting for the answer");
        }
        if (EgressRefusedException.in(e) != null) {
            return DeliveryFailedException.notDelivered("chat webhook: its address is refused by the egress policy (gateway.egress.allow)");
        }
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof IOException) && !(cause instanceof ReadTimeoutException)) {
            cause = cause.getCause();
        }
        String kind = cause.getClass().getSimpleName();
        if (failedBeforeSending(e)) {
            if (cause instanceof io.netty.channel.ConnectTimeoutException) {
                return DeliveryFailedException.notDelivered("chat webhook: connection timed out");
            }
            return DeliveryFailedException.notDelivered("chat webhook unreachable (" + kind + ")");
        }
        if (cause instanceof ReadTimeoutException || e.getMessage() != null && e.getMessage().startsWith("Timeout on blocking read")) {
            return DeliveryFailedException.inDoubt("chat webhook: no answer within " + requestTimeout);
        }
        // the connection broke after the request went out: the receiver may have posted it
        return DeliveryFailedException.inDoubt("chat webhook: connection lost before the answer (" + kind + ")");
    }

    /** No connection, no name resolution or no TLS session: the request never reached the receiver. */
    static boolean failedBeforeSending(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof SSLHandshakeException
                    || t instanceof UnresolvedAddressException) {
                return true;
            }
        }
        return false;
    }

    private URI openWebhookUrl(String sealed) throws DeliveryFailedException {
        String url;
        try {
            url = secretBox.open(sealed);
        } catch (IllegalArgumentException e) {
            throw DeliveryFailedException.notDelivered("chat webhook URL cannot be opened with the configured gateway.secrets.key");
        }
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            // URI's message quotes the input: say only that it is malformed
            throw DeliveryFailedException.notDelivered("chat webhook URL is not a valid URI");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if ((!scheme.equals("https") && !scheme.equals("http")) || uri.getHost() == null) {
            throw DeliveryFailedException.notDelivered("chat webhook URL must be an absolute http(s) URL");
        }
        return uri;
    }
}
