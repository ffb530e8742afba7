package io.agentgateway.mcpgate;

import io.agentgateway.httpedge.web.IngressJson;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The EvaluateAction payload of a {@code tools/call}: the arguments as the upstream will get them
 * ({@code _risk} already removed), so the audit entry shows what was asked. The decision stream keeps
 * only an excerpt of any payload (its {@code payload-excerpt-bytes}, flagged truncated), so arguments
 * above {@code gateway.mcp.audit-payload-bytes} are not sent whole: that would put them on the log a
 * second time next to the sealed held call for nothing. They are replaced by
 * {@code {"truncated": true, "bytes": <size of the whole compact JSON>, "excerpt": "<its first bytes>"}};
 * policies never look at the payload and the approval binds the sealed call, not this.
 */
final class McpAuditPayload {
    static final String TRUNCATED = "truncated";
    static final String BYTES = "bytes";
    static final String EXCERPT = "excerpt";

    private McpAuditPayload() {}

    static JsonNode of(ObjectNode arguments, int maxBytes) {
        byte[] utf8 = IngressJson.RESPONSES.writeValueAsBytes(arguments);
        if (utf8.length <= maxBytes) {
            return arguments;
        }
        int cut = maxBytes;
        // never split a UTF-8 sequence: step back over continuation bytes (10xxxxxx)
        while (cut > 0 && (utf8[cut] & 0xC0) == 0x80) {
            cut--;
        }
        ObjectNode summary = IngressJson.RESPONSES.createObjectNode();
        summary.put(TRUNCATED, true);
        summary.put(BYTES, utf8.length);
        summary.put(EXCERPT, new String(utf8, 0, cut, StandardCharsets.UTF_8));
        return summary;
    }
}
