package io.agentgateway.ingress.oauth;

/**
 * One upstream's OAuth app, as registered there: where admins consent, where codes are exchanged,
 * and the app's credentials. The redirect URL registered upstream must be
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
