package io.agentgateway.mcpgate.upstream;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Watches the size of every upstream answer of one session. The SDK decodes an answer whole, bounded
 * by {@code gateway.mcp.max-result-bytes}; an answer over that bound fails inside the SDK's transport,
 * which drops it, and the call would only end at its request timeout, reported as "no answer". This
 * filter counts the bytes of each message (a JSON body, or one server-sent event: bytes since the last
 * blank line) and, when one passes the bound, says so on {@link #oversized()}, which the calls in flight
 * on the session race against. It cannot tell which call of the session the answer was for: every call
 * in flight on the session at that moment ends with the error (an answer that large is rare and the
 * error says the outcome is unknown). It also counts the POSTs the upstream answered 404 (a session it
 * does not know), which is what proves a request did not run there.
 */
final class McpAnswerBound implements ExchangeFilterFunction {
    private final long maxBytes;
    private final Sinks.Many<Long> oversized = Sinks.many().multicast().directBestEffort();
    private final Sinks.One<Boolean> streamEnded = Sinks.one();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicLong oversizedAnswers = new AtomicLong();
    private final AtomicLong unknownSessionAnswers = new AtomicLong();

    McpAnswerBound(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The size seen (at least the bound plus one) each time an answer passes the bound. */
    Flux<Long> oversized() {
        return oversized.asFlux();
    }

    /** How many POSTs the upstream answered 404 (it does not know the session) so far. */
    long unknownSessionAnswers() {
        return unknownSessionAnswers.get();
    }

    /** How many answers passed the bound so far: a failure of a call during which this grew was that answer. */
    long oversizedAnswers() {
        return oversizedAnswers.get();
    }

    long maxBytes() {
        return maxBytes;
    }

    /**
     * Completes when an event stream the session opened with a GET ended (the HTTP+SSE transport's one
     * stream: every answer of the session would come on it, so the session is lost).
     */
    Mono<Boolean> eventStreamEnded() {
        return streamEnded.asMono();
    }

    /** Whether such a stream has ended already (the session is then of no use any more). */
    boolean eventStreamHasEnded() {
        return ended.get();
    }

    @Override
    public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
        boolean eventStream = request.method() == org.springframework.http.HttpMethod.GET;
        return next.exchange(request).doOnNext(response -> {
            if (request.method() == org.springframework.http.HttpMethod.POST && response.statusCode().value() == 404) {
                unknownSessionAnswers.incrementAndGet();
            }
        }).map(response -> response.mutate().body(body -> {
            Flux<DataBuffer> counted = counted(body);
            return eventStream ? counted.doFinally(signal -> endStream()) : counted;
        }).build()).doOnError(failure -> {
            if (eventStream) {
                endStream();
            }
        });
    }

    private void endStream() {
        ended.set(true);
        streamEnded.tryEmitValue(true);
    }

    private Flux<DataBuffer> counted(Flux<DataBuffer> body) {
        MessageSize size = new MessageSize();
        return body.doOnNext(buffer -> {
            long over = size.add(buffer);
            if (over > 0) {
                oversizedAnswers.incrementAndGet();
                synchronized (oversized) {
                    oversized.tryEmitNext(over);
                }
            }
        });
    }

    /** Bytes of the current message; a blank line (an SSE event's end) starts the next one. */
    private final class MessageSize {
        long bytes;
        int newlines;
        boolean reported;

        /** @return the size of a message that passed the bound in this buffer (reported once per message), else 0 */
        long add(DataBuffer buffer) {
            long over = 0;
            int end = buffer.writePosition();
            for (int i = buffer.readPosition(); i < end; i++) {
                byte b = buffer.getByte(i);
                if (b == '\n') {
                    if (++newlines == 2) {
                        bytes = 0;
                        reported = false;
                        continue;
                    }
                } else if (b != '\r') {
                    newlines = 0;
                }
                if (++bytes > maxBytes && !reported) {
                    reported = true;
                    over = bytes;
                }
            }
            return over;
        }
    }
}
