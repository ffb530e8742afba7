package io.agentgateway.adminapi.oauth;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The upstream's authorize URL with the parameters of RFC 6749 4.1.1: {@code response_type=code},
 * {@code client_id}, {@code redirect_uri}, {@code scope} and {@code state}, each form-encoded and
 * appended to whatever query the configured URL already has.
 */
final class AuthorizeRedirect {
    private AuthorizeRedirect() {}

    static URI of(OAuthClientProperties app, String redirectUri, String state) {
        String base = app.authorizeUrl().strip();
        StringBuilder url = new StringBuilder(base);
        url.append(base.contains("?") ? '&' : '?');
        url.append("response_type=code");
        append(url, "client_id", app.clientId());
        append(url, "redirect_uri", redirectUri);
        if (app.scopes() != null && !app.scopes().isBlank()) {
            append(url, "scope", app.scopes().strip());
        }
        append(url, "state", state);
        return URI.create(url.toString());
    }

    private static void append(StringBuilder url, String name, String value) {
        url.append('&').append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    }
}
