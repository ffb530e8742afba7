package io.agentgateway.adminapi.oauth;

import io.agentgateway.httpedge.web.ApiException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.springframework.http.HttpCookie;
import org.springframework.http.ResponseCookie;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * Ties an OAuth flow to the browser that started it (RFC 6749 10.12 / RFC 9700 4.7), so that nobody else can finish
 * it with a link to the callback: the start sets a
 * random value in a cookie ({@code HttpOnly}, {@code SameSite=Lax} so that it comes back on the upstream's
 * top-level redirect, {@code Secure} when the gateway's public URL is https, scoped to the callback's path, as
 * long-lived as the state) and binds the state to its SHA-256; the callback refuses a state whose browser does not
 * bring the cookie. A state that leaked (a log, a referrer, a phished link) is then useless in another browser,
 * and an attacker cannot make an admin's browser finish a flow the attacker started (login CSRF).
 */
final class OAuthBrowserBinding {
    static final String NOT_THIS_BROWSER = "state was not issued to this browser: start the connection again in the"
            + " browser that finishes it (the gateway's OAuth cookie is missing or does not match)";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int VALUE_BYTES = 32;

    private OAuthBrowserBinding() {}

    /** The flow cookie's name: one per tool, so connecting both tools at once works. */
    static String cookieName(OAuthTool tool) {
        return "gateway_oauth_" + tool.tool().wire();
    }

    /** A new random cookie value (256 bits, base64url). */
    static String newValue() {
        byte[] value = new byte[VALUE_BYTES];
        RANDOM.nextBytes(value);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
    }

    /** What the state binds: the SHA-256 hex of the cookie value (the state never carries the value itself). */
    static String binding(String cookieValue) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(cookieValue.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** The cookie the start sets, for the callback at {@code redirectUri}. */
    static ResponseCookie cookie(OAuthTool tool, String value, String redirectUri, Duration ttl) {
        URI callback = URI.create(redirectUri);
        return ResponseCookie.from(cookieName(tool), value)
                .httpOnly(true)
                .secure("https".equalsIgnoreCase(callback.getScheme()))
                .sameSite("Lax")
                .path(callback.getRawPath() == null || callback.getRawPath().isEmpty() ? "/" : callback.getRawPath())
                .maxAge(ttl)
                .build();
    }

    /** The same cookie, expired: sent with the callback's answer once the flow is over. */
    static ResponseCookie cleared(OAuthTool tool, String redirectUri) {
        return cookie(tool, "", redirectUri, Duration.ZERO);
    }

    /** @throws ApiException 400 unless the request brings a cookie whose value the state is bound to */
    static void require(ServerRequest request, OAuthState state) {
        List<HttpCookie> cookies = request.cookies().get(cookieName(state.tool()));
        if (state.browserBinding() == null || cookies == null || cookies.isEmpty()) {
            throw ApiException.badRequest(NOT_THIS_BROWSER);
        }
        byte[] expected = state.browserBinding().getBytes(StandardCharsets.US_ASCII);
        boolean matches = false;
        for (HttpCookie cookie : cookies) {
            // timing-safe: every cookie compared in full
            matches |= MessageDigest.isEqual(expected, binding(cookie.getValue()).getBytes(StandardCharsets.US_ASCII));
        }
        if (!matches) {
            throw ApiException.badRequest(NOT_THIS_BROWSER);
        }
    }
}
