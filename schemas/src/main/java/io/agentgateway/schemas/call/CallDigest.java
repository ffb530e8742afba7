package io.agentgateway.schemas.call;

import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Tool;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * Binds an approval to the exact call it holds: SHA-256 (lower-case hex) of the canonical JSON of the
 * array {@code [tool, action, payload]}. An array rather than a concatenation, so no choice of action
 * and payload text can collide with another. Whoever executes an approved call recomputes this over
 * the call it is about to make and refuses on mismatch.
 */
public final class CallDigest {
    private CallDigest() {}

    public static String of(Tool tool, String action, JsonNode payload) {
        ArrayNode call = GatewayJson.MAPPER.createArrayNode();
        call.add(tool.wire());
        call.add(action);
        call.add(payload == null ? GatewayJson.MAPPER.nullNode() : payload);
        return sha256Hex(CanonicalJson.of(call));
    }

    private static String sha256Hex(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
