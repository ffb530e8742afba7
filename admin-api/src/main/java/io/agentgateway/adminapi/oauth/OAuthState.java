package io.agentgateway.adminapi.oauth;

import java.time.Instant;
import java.util.UUID;

/**
 * What a flow's signed and sealed {@code state} binds: the workspace, the tool, the admin who started it, the
 * redirect URI sent to the authorize page (the token exchange must send the same one), a nonce
 * that makes it usable once, and {@code browserBinding}: the SHA-256 hex of the random value of the cookie the
 * start set in the admin's browser ({@link OAuthBrowserBinding}), which the callback must bring. {@code fromConsole}: the
 * flow was started from the console, whose tools page the callback sends the browser back to with the result (else the
 * callback answers JSON).
 */
record OAuthState(UUID workspaceId, OAuthTool tool, String userId, String email, String nonce,
                  String redirectUri, Instant expiresAt, String browserBinding, boolean fromConsole) {

    OAuthState(UUID workspaceId, OAuthTool tool, String userId, String email, String nonce, String redirectUri,
               Instant expiresAt, String browserBinding) {
        this(workspaceId, tool, userId, email, nonce, redirectUri, expiresAt, browserBinding, false);
    }

    /** A state bound to no browser (tests of the token format; the callback refuses it). */
    OAuthState(UUID workspaceId, OAuthTool tool, String userId, String email, String nonce, String redirectUri,
               Instant expiresAt) {
        this(workspaceId, tool, userId, email, nonce, redirectUri, expiresAt, null, false);
    }
}
