package io.agentgateway.ingress.proxy;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.PlainSecret;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The headers the gateway adds for a tool (spec 4.5): the code host gets {@code Authorization: token
 * <t>}, {@code User-Agent: service/1.0} and its v3 JSON media type; the issue tracker, and every
 * other tool that has a token, {@code Authorization: Bearer <t>}. They replace whatever the agent sent, but for
 * an agent's {@code Accept} within the code host's vendor media types ({@link
 * io.agentgateway.ingress.heldcall.UpstreamTarget#applyTo}: raw, diff, patch, … formats pass).
 */
final class ToolCredentials {
    static final String USER_AGENT = "service/1.0";
    static final String CODE_HOST_ACCEPT = "application/vnd.github.v3+json";

    private ToolCredentials() {}

    /** Whether the proxy refuses to call the tool without a stored token. */
    static boolean tokenRequired(Tool tool) {
        return tool == Tool.CODE_HOST || tool == Tool.ISSUE_TRACKER;
    }

    static Map<String, String> headers(Tool tool, PlainSecret token) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (tool == Tool.CODE_HOST) {
            if (token != null) {
                headers.put("Authorization", "token " + token.reveal());
            }
            headers.put("User-Agent", USER_AGENT);
            headers.put("Accept", CODE_HOST_ACCEPT);
        } else if (token != null) {
            headers.put("Authorization", "Bearer " + token.reveal());
        }
        return headers;
    }
}
