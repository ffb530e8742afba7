package io.agentgateway.adminapi.oauth;

import io.agentgateway.classification.ToolProfile;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * One upstream's OAuth app, as registered there: where admins consent, where codes are exchanged,
 * and the app's credentials. The URLs and scopes left unset are the tool profile's (the real upstream's). The redirect URL registered upstream must be
 * {@code <gateway.public-base-url><the tool's callback path>}.
 *
 * @param authorizeUrl the upstream's authorization page
 * @param tokenUrl     the upstream's token endpoint (codes are exchanged there, form-encoded)
 * @param clientId     the app's client id
 * @param clientSecret the app's client secret; never logged, never in a response
 * @param scopes       the {@code scope} parameter, sent as written (the code host separates scopes
 *                     with spaces, the issue tracker with commas)
 */
public record OAuthClientProperties(String authorizeUrl, String tokenUrl, String clientId, String clientSecret, String scopes) {

    /** A misspelt URL stops the start, rather than every admin's flow failing later. */
    public OAuthClientProperties {
        requireWebUrl(authorizeUrl, "authorize-url");
        requireWebUrl(tokenUrl, "token-url");
    }

    private static void requireWebUrl(String text, String name) {
        if (!present(text)) {
            return;
        }
        String message = "gateway.oauth.<tool>." + name + " must be an absolute http or https URL without a fragment";
        try {
            URI uri = new URI(text.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getRawFragment() != null) {
                throw new IllegalArgumentException(message);
            }
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(message, e);
        }
    }

    /** This app, with the profile's URLs and scopes where none is configured (the real upstream's). */
    OAuthClientProperties withDefaults(ToolProfile.OAuth defaults) {
        return new OAuthClientProperties(authorizeUrl != null ? authorizeUrl : defaults.authorizeUrl(),
                tokenUrl != null ? tokenUrl : defaults.tokenUrl(), clientId, clientSecret,
                scopes != null ? scopes : defaults.scopes());
    }

    /** Both credentials and both URLs are present. */
    boolean isConfigured() {
        return present(authorizeUrl) && present(tokenUrl) && present(clientId) && present(clientSecret);
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }

    @Override
    public String toString() {
        return "OAuthClientProperties[authorizeUrl=" + authorizeUrl + ", tokenUrl=" + tokenUrl + ", clientId=" + clientId
                + ", clientSecret=" + (present(clientSecret) ? "redacted" : "unset") + ", scopes=" + scopes + "]";
    }
}
