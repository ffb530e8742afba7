package io.agentgateway.httpedge.web;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;
import java.util.UUID;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * {@code Idempotency-Key} on evaluate-action, the proxy and MCP {@code tools/call}: a client that retries
 * with the same key gets the first outcome instead of a second decision and a second audit row. The
 * command id is derived from the workspace, the API key and the client's key (and, for MCP, the JSON-RPC
 * id, so the calls of one batch stay apart); the decision stream's processed-commands dedupe does the rest
 * for as long as it remembers ({@code gateway.decision.dedupe-retention}, 1 h by default). Another API key,
 * or another workspace, never shares an id with this one.
 */
public final class IdempotencyKeys {
    public static final String HEADER = "Idempotency-Key";
    static final int MAX_LENGTH = 255;
    public static final String INVALID = "Idempotency-Key must be 1 to 255 printable ASCII characters";

    private IdempotencyKeys() {}

    /** The client's key, checked (400 when malformed); empty when the request has none. */
    public static Optional<String> of(ServerRequest request) {
        String key = request.headers().firstHeader(HEADER);
        if (key == null) {
            return Optional.empty();
        }
        if (key.isEmpty() || key.length() > MAX_LENGTH || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw ApiException.badRequest(INVALID);
        }
        return Optional.of(key);
    }

    /** The command id of a request with this key: the same for every retry, unique per workspace and API key. */
    public static String commandId(String workspaceId, String apiKeyHash, String idempotencyKey, String qualifier) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : new String[] {"idempotency-key", workspaceId, apiKeyHash, qualifier == null ? "" : qualifier,
                    idempotencyKey}) {
                byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
                sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
                sha.update(bytes);
            }
            ByteBuffer digest = ByteBuffer.wrap(sha.digest());
            long high = (digest.getLong() & ~0xF000L) | 0x8000L; // version 8 (custom)
            long low = (digest.getLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
            return new UUID(high, low).toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
