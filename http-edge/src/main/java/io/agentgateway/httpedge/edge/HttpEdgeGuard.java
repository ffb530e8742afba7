package io.agentgateway.httpedge.edge;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP edge of one connection, in Netty's pipeline around the HTTP codec: a {@link #rawSide()} before
 * the codec sees the first byte of each request, a {@link #messageSide()} after it sees the decoded
 * request, its body and the response going out. Between them they
 * <ul>
 *   <li>bound each phase of a request: its headers ({@code header-timeout} from its first byte), the pause
 *       between two reads of its body ({@code body-read-timeout}) and the whole body ({@code body-timeout});
 *       a client that is too slow gets 408 and the connection is closed (a slowloris client holds nothing);</li>
 *   <li>answer what the codec could not decode (a malformed request line or header, a bad chunk size,
 *       Content-Length together with Transfer-Encoding: 400; a request line over its limit: 414; headers
 *       over theirs: 431) with the gateway's JSON error body and close the connection, before Reactor Netty
 *       or Spring see it: no WARN or ERROR per malformed request, no stack trace.</li>
 * </ul>
 * A timer that expires while the server itself holds back the reading (Reactor Netty turns auto-read off
 * while the application has not asked for more of the body) starts again: only the client's slowness counts.
 * All state lives on the connection's event loop; no locking.
 */
final class HttpEdgeGuard {
    private static final Logger log = LoggerFactory.getLogger(HttpEdgeGuard.class);

    private enum Phase { IDLE, HEADERS, BODY }

    /** How long, and for how many more bytes of the body, a close waits after an early answer. */
    private static final Duration LINGER = Duration.ofSeconds(2);
    private static final long LINGER_BYTES = 4L << 20;

    private final HttpEdgeProperties limits;
    private final HttpEdgeRefusals refusals;
    private final RawSide rawSide = new RawSide();
    private final MessageSide messageSide = new MessageSide();

    private ChannelHandlerContext messageContext;
    private Phase phase = Phase.IDLE;
    /** The current request has been answered (its response has begun). */
    private boolean responseStarted;
    /** A response is being written (begun, its last part not yet written): with pipelining, maybe an earlier request's. */
    private boolean responseInProgress;
    private boolean closing;
    private ScheduledFuture<?> headerTimer;
    private ScheduledFuture<?> bodyReadTimer;
    private ScheduledFuture<?> bodyTimer;
    private ScheduledFuture<?> lingerTimer;
    private ChannelPromise lingerPromise;
    private long lingeredBytes;

    HttpEdgeGuard(HttpEdgeProperties limits, HttpEdgeRefusals refusals) {
        this.limits = limits;
        this.refusals = refusals;
    }

    /** Goes before the HTTP codec: sees raw bytes. */
    ChannelHandler rawSide() {
        return rawSide;
    }

    /** Goes right after the HTTP codec: sees decoded requests and the responses going out. */
    ChannelHandler messageSide() {
        return messageSide;
    }

    private final class RawSide extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (phase == Phase.IDLE && msg instanceof ByteBuf bytes && bytes.isReadable()) {
                phase = Phase.HEADERS;
                headerTimer = schedule(ctx, limits.headerTimeout(), this::headersTimedOut);
            }
            super.channelRead(ctx, msg);
        }

        private void headersTimedOut() {
            headerTimer = null;
            refuse(HttpResponseStatus.REQUEST_TIMEOUT, "header_timeout",
                    "The request headers were not received within " + seconds(limits.headerTimeout()));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            cancelTimers();
            super.channelInactive(ctx);
        }
    }

    private final class MessageSide extends ChannelDuplexHandler {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            messageContext = ctx;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (closing) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (lingerTimer != null) {
                // answered and closing: what is left of the body is read and dropped, then the connection closes
                boolean last = msg instanceof LastHttpContent || msg instanceof HttpObject http && http.decoderResult().isFailure();
                if (msg instanceof HttpContent content) {
                    lingeredBytes += content.content().readableBytes();
                }
                ReferenceCountUtil.release(msg);
                if (last || lingeredBytes > LINGER_BYTES) {
                    closeAfterLinger();
                }
                return;
            }
            if (msg instanceof HttpObject http && http.decoderResult().isFailure()) {
                ReferenceCountUtil.release(msg);
                malformed(http.decoderResult());
                return;
            }
            if (msg instanceof HttpRequest) {
                cancel(headerTimer);
                headerTimer = null;
                phase = Phase.BODY;
                responseStarted = false;
                bodyTimer = schedule(ctx, limits.bodyTimeout(), this::bodyTimedOut);
                bodyReadTimer = schedule(ctx, limits.bodyReadTimeout(), this::bodyStalled);
            }
            if (msg instanceof LastHttpContent) {
                cancelBodyTimers();
                phase = Phase.IDLE;
            } else if (msg instanceof HttpContent && bodyReadTimer != null) {
                cancel(bodyReadTimer);
                bodyReadTimer = schedule(ctx, limits.bodyReadTimeout(), this::bodyStalled);
            }
            super.channelRead(ctx, msg);
        }

        /**
         * A close asked for while the request's body is still arriving (an answer given before the body was read,
         * such as a 413 for a declared length over the limit) waits a moment, reading and dropping the rest: a
         * socket closed with unread data sends a reset, which can destroy the answer before the client reads it.
         */
        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
            if (phase == Phase.BODY && lingerTimer == null && !closing && ctx.channel().isActive()) {
                lingerPromise = promise;
                lingerTimer = schedule(ctx, LINGER, this::closeAfterLinger);
                cancelBodyTimers();
                ctx.channel().config().setAutoRead(true);
                ctx.read();
                return;
            }
            super.close(ctx, promise);
        }

        private void closeAfterLinger() {
            ChannelPromise promise = lingerPromise;
            if (promise == null) {
                return;
            }
            lingerPromise = null;
            cancel(lingerTimer);
            closing = true;
            messageContext.close(promise);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            if (msg instanceof HttpResponse) {
                responseStarted = true;
                responseInProgress = true;
            }
            if (msg instanceof LastHttpContent) {
                responseInProgress = false;
            }
            super.write(ctx, msg, promise);
        }

        private void bodyTimedOut() {
            bodyTimer = null;
            if (!messageContext.channel().config().isAutoRead()) {
                bodyTimer = schedule(messageContext, limits.bodyTimeout(), this::bodyTimedOut);
                return;
            }
            refuse(HttpResponseStatus.REQUEST_TIMEOUT, "body_timeout",
                    "The request body was not received within " + seconds(limits.bodyTimeout()));
        }

        private void bodyStalled() {
            bodyReadTimer = null;
            if (!messageContext.channel().config().isAutoRead()) {
                bodyReadTimer = schedule(messageContext, limits.bodyReadTimeout(), this::bodyStalled);
                return;
            }
            refuse(HttpResponseStatus.REQUEST_TIMEOUT, "body_read_timeout",
                    "No part of the request body arrived for " + seconds(limits.bodyReadTimeout()));
        }

        private void malformed(DecoderResult result) {
            Throwable cause = result.cause();
            if (cause instanceof TooLongHttpLineException) {
                refuse(HttpResponseStatus.REQUEST_URI_TOO_LONG, "line_too_long", "The request line is too long");
            } else if (cause instanceof TooLongHttpHeaderException) {
                refuse(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "headers_too_large", "The request headers are too large");
            } else if (cause instanceof TooLongFrameException) {
                refuse(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "too_large", "Request body too large");
            } else {
                refuse(HttpResponseStatus.BAD_REQUEST, "malformed", "Malformed HTTP request");
            }
            log.debug("{}: refused a request the HTTP codec could not decode: {}", messageContext.channel(), String.valueOf(cause));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            cancelTimers();
            if (lingerPromise != null) {
                lingerPromise.trySuccess();
                lingerPromise = null;
            }
            super.channelInactive(ctx);
        }
    }

    /**
     * Answers with a JSON error and closes the connection; when a response is already under way only
     * closes it (a second status line would corrupt the first).
     */
    private void refuse(HttpResponseStatus status, String reason, String error) {
        if (closing || messageContext == null) {
            return;
        }
        closing = true;
        cancelTimers();
        refusals.count(reason);
        log.debug("{}: {} ({})", messageContext.channel(), error, status.code());
        if (responseStarted || responseInProgress || !messageContext.channel().isActive()) {
            messageContext.close();
            return;
        }
        String correlationId = UUID.randomUUID().toString();
        byte[] body = ("{\"ok\":false,\"error\":\"" + error + "\",\"correlationId\":\"" + correlationId + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE)
                .set("X-Correlation-Id", correlationId);
        messageContext.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    private static ScheduledFuture<?> schedule(ChannelHandlerContext ctx, Duration delay, Runnable task) {
        return ctx.executor().schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void cancelTimers() {
        cancel(headerTimer);
        headerTimer = null;
        cancel(lingerTimer);
        cancelBodyTimers();
    }

    private void cancelBodyTimers() {
        cancel(bodyReadTimer);
        cancel(bodyTimer);
        bodyReadTimer = null;
        bodyTimer = null;
    }

    private static void cancel(ScheduledFuture<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
    }

    private static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
