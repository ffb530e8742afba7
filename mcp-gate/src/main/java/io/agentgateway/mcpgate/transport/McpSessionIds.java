package io.agentgateway.mcpgate.transport;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.httpedge.secret.SecretsProperties;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.secret.SecretBox;
import java.time.Duration;
import java.util.Optional;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code Mcp-Session-Id}s of the Streamable HTTP transport that every ingress replica can serve: the
 * session's state (the key's workspace and hash, the negotiated protocol version) is in the id itself,
 * sealed with {@code gateway.secrets.key} (the key every replica has), so no replica holds sessions and
 * no routing needs to be sticky. An id sealed for another key, altered or not sealed by us is unknown
 * (404, as the transport says for a session the server does not know). Without a secrets key no ids
 * are issued (the transport allows a server without sessions).
 */
@Component
class McpSessionIds {
    static final String HEADER = "Mcp-Session-Id";
    private static final String PREFIX = "mcp1.";

    private final SecretBox box;
    /**
     * Ids opened before, by their text: a client sends its id with every request, and opening it (AES-GCM, then
     * JSON) was a measurable part of each call. Only authentic ids get here (one that fails to open throws and is
     * not kept); what a request may do is still checked against its own key every time.
     */
    private final Cache<String, JsonNode> opened = Caffeine.newBuilder()
            .maximumSize(10_000).expireAfterAccess(Duration.ofMinutes(30)).build();

    McpSessionIds(SecretsProperties secrets) {
        this.box = secrets.key() == null || secrets.key().isBlank() ? null : SecretBox.fromBase64Key(secrets.key());
    }

    /** What a session id holds: the negotiated version and the client capabilities the gate relays (see {@code McpClientSession}). */
    record State(String protocolVersion, ObjectNode capabilities) {}

    Optional<String> issue(ApiKeyCredential key, String protocolVersion) {
        return issue(key, protocolVersion, IngressJson.RESPONSES.createObjectNode());
    }

    /**
     * A new session id for the key, the version initialize negotiated and the client's relayed capabilities;
     * empty without a secrets key.
     */
    Optional<String> issue(ApiKeyCredential key, String protocolVersion, ObjectNode capabilities) {
        if (box == null) {
            return Optional.empty();
        }
        ObjectNode state = IngressJson.RESPONSES.createObjectNode();
        state.put("w", key.workspaceId().toString());
        state.put("k", key.keyHash());
        state.put("v", protocolVersion);
        if (capabilities != null && !capabilities.isEmpty()) {
            state.set("c", capabilities);
        }
        // base64 of the sealed bytes: visible ASCII only, as the transport requires of a session id
        return Optional.of(PREFIX + box.seal(IngressJson.RESPONSES.writeValueAsString(state)));
    }

    /** The negotiated protocol version of a session id this key may use; empty when the id is unknown to it. */
    Optional<String> open(String id, ApiKeyCredential key) {
        return state(id, key).map(State::protocolVersion);
    }

    /** The state of a session id this key may use; empty when the id is unknown to it. */
    Optional<State> state(String id, ApiKeyCredential key) {
        if (box == null || id == null || !id.startsWith(PREFIX)) {
            return Optional.empty();
        }
        try {
            JsonNode state = opened.get(id, sealed -> IngressJson.REQUESTS.readTree(box.open(sealed.substring(PREFIX.length()))));
            boolean same = key.workspaceId().toString().equals(state.path("w").asString(""))
                    && key.keyHash().equals(state.path("k").asString(""));
            JsonNode capabilities = state.get("c");
            return same ? Optional.of(new State(state.path("v").asString(""), capabilities instanceof ObjectNode given
                    ? given.deepCopy() : IngressJson.RESPONSES.createObjectNode())) : Optional.empty();
        } catch (RuntimeException notOurs) {
            return Optional.empty();
        }
    }
}
