package io.agentgateway.ingress.auth;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code gateway.auth.jwt.*}: how user JWTs are verified. At least one of {@code hs256Secret}
 * (at least 32 bytes) and {@code jwksUrl} (RS256/ES256 keys) should be set; without either, every
 * token is refused. {@code issuer} and {@code audience} are checked when set.
 */
@ConfigurationProperties("gateway.auth.jwt")
public record JwtProperties(String hs256Secret, String jwksUrl, String issuer, String audience) {

    public JwtProperties {
        hs256Secret = blankToNull(hs256Secret);
        jwksUrl = blankToNull(jwksUrl);
        issuer = blankToNull(issuer);
        audience = blankToNull(audience);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
