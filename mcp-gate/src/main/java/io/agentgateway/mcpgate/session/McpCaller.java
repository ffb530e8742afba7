package io.agentgateway.mcpgate.session;

import io.agentgateway.httpedge.auth.ApiKeyCredential;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * Who sends an MCP message. {@code idempotencyKey}: the request's {@code Idempotency-Key}, null without
 * one; a {@code tools/call} retried with it gets the first outcome ({@code IdempotencyKeys}).
 * {@code notifications}: where the upstream's notifications about this request go (progress), as
 * JSON-RPC notifications for the client; null when the client's exchange cannot carry any (a JSON answer).
 * {@code client}: the client session the message belongs to (its own upstream session, what the upstream
 * initiates goes there); null without one (the gate-owned upstream session).
 * {@code versionHeader}: the request's {@code MCP-Protocol-Version} header, or null.
 */
public record McpCaller(ApiKeyCredential key, String agentId, String correlationId, String idempotencyKey,
                 Consumer<JsonNode> notifications, McpClientSession client, String versionHeader) {

    public McpCaller(ApiKeyCredential key, String agentId, String correlationId, String idempotencyKey) {
        this(key, agentId, correlationId, idempotencyKey, null, null, null);
    }

    public McpCaller(ApiKeyCredential key, String agentId, String correlationId) {
        this(key, agentId, correlationId, null, null, null, null);
    }

    public McpCaller withNotifications(Consumer<JsonNode> to) {
        return new McpCaller(key, agentId, correlationId, idempotencyKey, to, client, versionHeader);
    }

    public McpCaller withClient(McpClientSession session) {
        return new McpCaller(key, agentId, correlationId, idempotencyKey, notifications, session, versionHeader);
    }

    public McpCaller withVersionHeader(String header) {
        return new McpCaller(key, agentId, correlationId, idempotencyKey, notifications, client,
                header == null || header.isBlank() ? null : header.strip());
    }

    /**
     * The protocol version this caller speaks, as far as the transport says: the version its session negotiated at
     * {@code initialize}, else its {@code MCP-Protocol-Version} header; null when neither says (spec 4.3's exchange).
     * A 2026-07-28 request names its version in its own {@code _meta} ({@link McpRevisions}).
     */
    String protocolVersion() {
        String negotiated = client == null ? null : client.protocolVersion();
        return negotiated != null ? negotiated : versionHeader;
    }
}
