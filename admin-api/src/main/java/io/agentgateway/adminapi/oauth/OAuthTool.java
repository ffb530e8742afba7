package io.agentgateway.adminapi.oauth;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Tool;
import java.util.List;
import java.util.Optional;

/**
 * A tool whose access token is obtained by OAuth (spec section 2): one whose profile has an OAuth app
 * ({@link ToolProfile.OAuth}), with its callback path (the issue tracker's is the spec's, 4.7; the code host's is
 * ours, the spec does not show it), its settings ({@code gateway.oauth.<key>.*}) and its defaults.
 */
record OAuthTool(Tool tool, String displayName, ToolProfile.OAuth oauth) {
    private static final List<OAuthTool> ALL = ToolProfiles.where(ToolProfile::connectsByOAuth).stream()
            .map(profile -> new OAuthTool(profile.tool(), profile.displayName(), profile.oauth().orElseThrow()))
            .toList();

    static final String ONLY_THESE = "OAuth connect is only for the "
            + ToolProfiles.listed(ToolProfile::connectsByOAuth, "and") + " tools";

    String callbackPath() {
        return oauth.callbackPath();
    }

    /** How error texts name the upstream ("the issue tracker's token endpoint ..."). */
    @Override
    public String displayName() {
        return displayName;
    }

    /** {@code gateway.oauth.<key>}, the prefix of the app's settings. */
    String settingsPrefix() {
        return "gateway.oauth." + oauth.settingsKey();
    }

    /** The app as configured, with the profile's URLs and scopes for what is not (the real upstream's). */
    OAuthClientProperties client(OAuthProperties properties) {
        return properties.app(oauth.settingsKey()).withDefaults(oauth);
    }

    /** Every tool with OAuth, in the order of {@link Tool}. */
    static List<OAuthTool> values() {
        return ALL;
    }

    static Optional<OAuthTool> of(Tool tool) {
        return ALL.stream().filter(candidate -> candidate.tool == tool).findFirst();
    }

    /** The path's tool, or a 400 naming the tools that have OAuth. */
    static OAuthTool parse(String wire) {
        return Tool.parse(wire).flatMap(OAuthTool::of).orElseThrow(() -> ApiException.badRequest(ONLY_THESE));
    }
}
