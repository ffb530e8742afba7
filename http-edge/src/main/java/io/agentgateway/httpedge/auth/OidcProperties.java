package io.agentgateway.httpedge.auth;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.auth.oidc.*}: the organization's OpenID Connect provider. With {@code issuer} set, the admin API
 * accepts that provider's ID and access tokens (RS256/ES256 through its JWKS, {@code iss}, {@code aud}, {@code exp}
 * checked) beside the HS256 tokens, and the console signs people in with it (authorization code flow with PKCE,
 * {@code clientId} and {@code clientSecret}). Discovery ({@code <issuer>/.well-known/openid-configuration}) and the
 * JWKS are fetched on first use through the egress policy, never at start-up: the gateway starts while the provider
 * is down and refuses its tokens meanwhile (503).
 *
 * @param audiences  the {@code aud} values a token may carry (any one of them); empty: the client id
 * @param userClaim  which claim is the user id that workspace membership uses: {@code sub} (default) or
 *                   {@code email} (then only with {@code email_verified} not false)
 * @param scopes     what the console asks for at sign-in
 * @param timeout    one request to the provider (discovery, JWKS, token endpoint)
 */
@ConfigurationProperties("gateway.auth.oidc")
public record OidcProperties(String issuer, String clientId, String clientSecret, List<String> audiences,
                             @DefaultValue("sub") String userClaim, @DefaultValue("openid email profile") String scopes,
                             @DefaultValue("PT5S") Duration timeout) {
    public static final String SUB = "sub";
    public static final String EMAIL = "email";

    @ConstructorBinding
    public OidcProperties {
        issuer = blankToNull(issuer);
        clientId = blankToNull(clientId);
        clientSecret = blankToNull(clientSecret);
        audiences = audiences == null ? List.of() : audiences.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
        userClaim = userClaim == null ? SUB : userClaim.trim().toLowerCase(Locale.ROOT);
        if (!SUB.equals(userClaim) && !EMAIL.equals(userClaim)) {
            throw new IllegalArgumentException("gateway.auth.oidc.user-claim must be sub or email, not " + userClaim);
        }
        if (issuer != null && clientId == null) {
            throw new IllegalArgumentException("gateway.auth.oidc.client-id is required with gateway.auth.oidc.issuer");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("gateway.auth.oidc.timeout must be positive");
        }
    }

    /** Without an identity provider. */
    public static OidcProperties none() {
        return new OidcProperties(null, null, null, List.of(), SUB, "openid email profile", Duration.ofSeconds(5));
    }

    public boolean configured() {
        return issuer != null;
    }

    /** The {@code aud} values accepted: the configured ones, else the client id. */
    public List<String> acceptedAudiences() {
        return audiences.isEmpty() && clientId != null ? List.of(clientId) : audiences;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
