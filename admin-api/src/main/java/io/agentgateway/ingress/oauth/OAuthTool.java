package io.agentgateway.ingress.oauth;

import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.schemas.Tool;
import java.util.Arrays;
import java.util.Optional;

/**
 * The tools whose access token is obtained by OAuth (spec section 2), each with its callback path:
 * the issue tracker's is the spec's (4.7); the code host's is ours (the spec does not show it).
 */
enum OAuthTool {
    CODE_HOST(Tool.CODE_HOST, "/functions/v1/code-host-oauth-callback", "code host"),
    ISSUE_TRACKER(Tool.ISSUE_TRACKER, "/functions/v1/issue-tracker-oauth-callback", "issue tracker");

    static final String ONLY_THESE = "OAuth connect is only for the code_host and issue_tracker tools";

    private final Tool tool;
    private final String callbackPath;
    private final String displayName;

    OAuthTool(Tool tool, String callbackPath, String displayName) {
        this.tool = tool;
        this.callbackPath = callbackPath;
        this.displayName = displayName;
    }

    Tool tool() {
        return tool;
    }

    String callbackPath() {
        return callbackPath;
    }

    /** How error texts name the upstream ("the issue tracker's token endpoint ..."). */
    String displayName() {
        return displayName;
    }

    OAuthClientProperties client(OAuthProperties properties) {
        return this == CODE_HOST ? properties.codeHost() : properties.issueTracker();
    }

    static Optional<OAuthTool> of(Tool tool) {
        return Arrays.stream(values()).filter(candidate -> candidate.tool == tool).findFirst();
    }

    /** The path's tool, or a 400 naming the tools that have OAuth. */
    static OAuthTool parse(String wire) {
        return Tool.parse(wire).flatMap(OAuthTool::of).orElseThrow(() -> ApiException.badRequest(ONLY_THESE));
    }
}
