package io.agentgateway.notifier.channel;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.event.NotificationRequested;
import io.agentgateway.schemas.secret.SecretBox;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLHandshakeException;

/**
 * Posts a notification to a Slack-compatible incoming webhook: {@code {"text": "..."}}. The URL
 * arrives sealed and is opened only here, only for the request; it is a credential (whoever knows it
 * can post to the channel), so it never appears in a log line, an error message or a header.
 */
public class ChatWebhookSender implements ChannelSender {
    private final SecretBox secretBox;
    private final HttpClient httpClient;
    private final Duration requestTimeout;
    private final ReviewLinks reviewLinks;

    public ChatWebhookSender(SecretBox secretBox, Duration connectTimeout, Duration requestTimeout) {
        this(secretBox, connectTimeout, requestTimeout, ReviewLinks.pathsOnly());
    }

    public ChatWebhookSender(SecretBox secretBox, Duration connectTimeout, Duration requestTimeout, ReviewLinks reviewLinks) {
        this.secretBox = Objects.requireNonNull(secretBox, "secretBox");
        this.reviewLinks = Objects.requireNonNull(reviewLinks, "reviewLinks");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.httpClient = HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                // a redirect would carry the message somewhere the workspace admin did not configure
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
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
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(webhook)
                    .timeout(requestTimeout)
                    .header("Content-Type", "application/json; charset=utf-8")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
        } catch (IllegalArgumentException e) {
            // the exception's message quotes the URL
            throw DeliveryFailedException.notDelivered("chat webhook URL is not usable for an HTTP request");
        }
        int status = post(request);
        if (status < 200 || status > 299) {
            throw DeliveryFailedException.notDelivered("chat webhook answered HTTP " + status);
        }
    }

    /** Only the kind of a failure is reported, never its message: messages can name the host or the URL. */
    private int post(HttpRequest request) throws DeliveryFailedException {
        try {
            return httpClient.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (HttpConnectTimeoutException e) {
            throw DeliveryFailedException.notDelivered("chat webhook: connection timed out");
        } catch (HttpTimeoutException e) {
            throw DeliveryFailedException.inDoubt("chat webhook: no answer within " + requestTimeout);
        } catch (IOException e) {
            String kind = e.getClass().getSimpleName();
            if (failedBeforeSending(e)) {
                throw DeliveryFailedException.notDelivered("chat webhook unreachable (" + kind + ")");
            }
            // the connection broke after the request went out: the receiver may have posted it
            throw DeliveryFailedException.inDoubt("chat webhook: connection lost before the answer (" + kind + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw DeliveryFailedException.inDoubt("chat webhook: interrupted while waiting for the answer");
        } catch (RuntimeException e) {
            throw DeliveryFailedException.inDoubt("chat webhook: unexpected " + e.getClass().getSimpleName());
        }
    }

    /** No connection, no name resolution or no TLS session: the request never reached the receiver. */
    static boolean failedBeforeSending(IOException e) {
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
