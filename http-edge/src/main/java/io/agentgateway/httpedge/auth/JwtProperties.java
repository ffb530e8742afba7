package io.agentgateway.httpedge.auth;

import java.time.Duration;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code gateway.auth.jwt.*}: how user JWTs are verified. At least one of {@code hs256Secret}
 * (at least 32 bytes) and {@code jwksUrl} (RS256/ES256 keys) should be set; without either, every
 * token is refused. {@code issuer} and {@code audience} are checked when set. {@code maxClockSkew} is
 * the clock difference allowed between the token's issuer and this gateway for {@code exp}, {@code nbf}
 * and {@code iat} (a token issued further in the future is refused).
 */
@ConfigurationProperties("gateway.auth.jwt")
public record JwtProperties(String hs256Secret, String jwksUrl, String issuer, String audience,
                            @DefaultValue("PT60S") Duration maxClockSkew) {

    @ConstructorBinding
    public JwtProperties {
        if (maxClockSkew == null || maxClockSkew.isNegative()) {
            throw new IllegalArgumentException("gateway.auth.jwt.max-clock-skew must not be negative");
        }
        hs256Secret = blankToNull(hs256Secret);
        jwksUrl = blankToNull(jwksUrl);
        issuer = blankToNull(issuer);
        audience = blankToNull(audience);
    }

    /** With the default clock skew (60 s). */
    public JwtProperties(String hs256Secret, String jwksUrl, String issuer, String audience) {
        this(hs256Secret, jwksUrl, issuer, audience, Duration.ofSeconds(60));
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
