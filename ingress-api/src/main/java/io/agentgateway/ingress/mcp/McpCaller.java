package io.agentgateway.ingress.mcp;

import io.agentgateway.ingress.auth.ApiKeyCredential;

/** Who sent a gate request: the API key (well-formed; the stream or the read model says whether it is valid) and the agent. */
/**
 * Who sends an MCP message. {@code idempotencyKey}: the request's {@code Idempotency-Key}, null without
 * one; a {@code tools/call} retried with it gets the first outcome ({@code IdempotencyKeys}).
 */
record McpCaller(ApiKeyCredential key, String agentId, String correlationId, String idempotencyKey) {

    McpCaller(ApiKeyCredential key, String agentId, String correlationId) {
        this(key, agentId, correlationId, null);
    }
}
