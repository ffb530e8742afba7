package io.agentgateway.ingress.oauth;

import java.time.Instant;
import java.util.UUID;

/**
 * What a flow's signed {@code state} binds: the workspace, the tool, the admin who started it, the
 * redirect URI sent to the authorize page (the token exchange must send the same one), and a nonce
 * that makes it usable once.
 */
record OAuthState(UUID workspaceId, OAuthTool tool, String userId, String email, String nonce,
                  String redirectUri, Instant expiresAt) {}
