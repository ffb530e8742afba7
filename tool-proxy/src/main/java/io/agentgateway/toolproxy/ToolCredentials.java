package io.agentgateway.toolproxy;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.PlainSecret;
import java.util.Map;

/**
 * The headers the gateway adds for a tool (spec 4.5), as its profile says ({@link ToolProfile.Credential}): the
 * code host gets {@code Authorization: token <t>}, {@code User-Agent: service/1.0} and its v3 JSON media type;
 * the issue tracker, and every other tool that has a token, {@code Authorization: Bearer <t>}. They replace
 * whatever the agent sent, but for an agent's {@code Accept} within the code host's vendor media types ({@link
 * io.agentgateway.actiongate.heldcall.UpstreamTarget#applyTo}: raw, diff, patch, … formats pass).
 */
final class ToolCredentials {

    private ToolCredentials() {}

    /** Whether the proxy refuses to call the tool without a stored token. */
    static boolean tokenRequired(Tool tool) {
        return credential(tool).tokenRequired();
    }

    static Map<String, String> headers(Tool tool, PlainSecret token) {
        return credential(tool).headers(token);
    }

    private static ToolProfile.Credential credential(Tool tool) {
        return ProxyClassifier.proxied(tool).credential();
    }
}
