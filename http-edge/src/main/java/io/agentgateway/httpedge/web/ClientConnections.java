package io.agentgateway.httpedge.web;

import io.netty.handler.timeout.ReadTimeoutException;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import reactor.netty.Connection;
import reactor.netty.http.server.HttpServerResponse;

/** What the error handler needs to know of the connection under a request. */
final class ClientConnections {
    private ClientConnections() {}

    /**
     * Whether there is no one to answer: the connection is closed, or the server already answered on it
     * below Spring (the HTTP edge's own 400/408, which close the connection).
     */
    static boolean isGone(ServerHttpResponse response) {
        Object nativeResponse;
        try {
            nativeResponse = ServerHttpResponseDecorator.getNativeResponse(response);
        } catch (IllegalStateException noServer) {
            // a response served in process, with no connection under it (a handler's test): somebody to answer
            return false;
        }
        if (nativeResponse instanceof Connection connection && !connection.channel().isActive()) {
            return true;
        }
        return nativeResponse instanceof HttpServerResponse netty && netty.hasSentHeaders() && !response.isCommitted();
    }

    /** A body that stopped arriving (Netty's read timeout; the HTTP edge closes the connection itself). */
    static boolean isReadTimeout(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ReadTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
