package io.agentgateway.httpedge.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.util.DateUtils;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.time.Duration;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Verifies user JWTs with nimbus-jose-jwt: HS256 with a shared secret and/or RS256/ES256 with keys
 * from a JWKS URL, chosen by the token's {@code alg} (a token can never pick a key type the
 * configuration did not enable). {@code exp} and {@code sub} are required; {@code iss} and
 * {@code aud} are checked when configured.
 *
 * <p>With an OpenID provider configured ({@link OidcProperties}), a token whose {@code iss} is that provider's is
 * verified against the provider alone: RS256/ES256 with its JWKS (found by discovery), {@code iss} exact, {@code aud}
 * one of the accepted audiences, {@code exp} required, the same clock skew; its user id is the configured claim
 * ({@code sub}, or a verified {@code email}). Automation and the console so use one identity. A token naming the
 * provider as issuer can only pass with the provider's keys.
 */
@Component
public class JwtVerifier {
    private static final Logger log = LoggerFactory.getLogger(JwtVerifier.class);
    private static final int MIN_SECRET_BYTES = 32;
    private static final Set<JWSAlgorithm> ASYMMETRIC = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final boolean remoteKeys;
    private final OidcIssuer oidc;
    private final DefaultJWTProcessor<SecurityContext> oidcProcessor;

    public JwtVerifier(JwtProperties properties) {
        this(properties, null);
    }

    @org.springframework.beans.factory.annotation.Autowired
    public JwtVerifier(JwtProperties properties, OidcIssuer oidc) {
        this.oidc = oidc != null && oidc.configured() ? oidc : null;
        this.oidcProcessor = this.oidc == null ? null : oidcProcessor(this.oidc, properties.maxClockSkew());
        JWSKeySelector<SecurityContext> hs256 = hs256Selector(properties.hs256Secret());
        JWSKeySelector<SecurityContext> jwks = jwksSelector(properties.jwksUrl());
        this.remoteKeys = jwks != null || this.oidc != null;
        if (hs256 == null && jwks == null && this.oidc == null) {
            log.warn("neither gateway.auth.jwt.hs256-secret nor gateway.auth.jwt.jwks-url is set: every user token will be refused");
        }
        processor.setJWSKeySelector((header, context) -> {
            JWSAlgorithm algorithm = header.getAlgorithm();
            if (hs256 != null && JWSAlgorithm.HS256.equals(algorithm)) {
                return hs256.selectJWSKeys(header, context);
            }
            if (jwks != null && ASYMMETRIC.contains(algorithm)) {
                return jwks.selectJWSKeys(header, context);
            }
            return List.<Key>of();
        });
        JWTClaimsSet exactMatch = properties.issuer() == null ? null
                : new JWTClaimsSet.Builder().issuer(properties.issuer()).build();
        DefaultJWTClaimsVerifier<SecurityContext> claims = new NotIssuedInTheFuture(properties.audience(), exactMatch,
                Set.of("sub", "exp"));
        claims.setMaxClockSkew((int) Math.min(Integer.MAX_VALUE, properties.maxClockSkew().toSeconds()));
        processor.setJWTClaimsSetVerifier(claims);
    }

    /**
     * Whether verification may fetch keys over the network (JWKS), in which case callers must not
     * run it on an event-loop thread.
     */
    public boolean mayBlock() {
        return remoteKeys;
    }

    /**
     * The verified user, or empty for any token that is malformed, unsigned, expired or untrusted.
     *
     * @throws KeysUnavailableException when the JWKS URL cannot be read, so that an outage of the
     *         identity provider is reported as such rather than as a bad token
     */
    public Optional<AuthenticatedUser> verify(String token) {
        if (oidc != null && issuedByProvider(token)) {
            return verifyProviderToken(token);
        }
        try {
            JWTClaimsSet claims = processor.process(token, null);
            String subject = claims.getSubject();
            if (subject == null || subject.isBlank()) {
                return Optional.empty();
            }
            return Optional.of(new AuthenticatedUser(subject, claims.getStringClaim("email")));
        } catch (KeySourceException e) {
            throw new KeysUnavailableException(e);
        } catch (Exception e) {
            // every failure means the same to the caller; the reason is only for our logs
            log.debug("refused a user token: {}", e.getMessage());
            return Optional.empty();
        }
    }

    /** Whether the token (unverified) names the OpenID provider as its issuer: then only the provider's keys may pass it. */
    private boolean issuedByProvider(String token) {
        try {
            return oidc.properties().issuer().equals(com.nimbusds.jwt.JWTParser.parse(token).getJWTClaimsSet().getIssuer());
        } catch (java.text.ParseException | RuntimeException e) {
            return false;
        }
    }

    private Optional<AuthenticatedUser> verifyProviderToken(String token) {
        return providerClaims(token).flatMap(claims -> userOf(claims, oidc.properties().userClaim()));
    }

    /**
     * The claims of a token the OpenID provider signed (RS256/ES256 with its JWKS, {@code iss} exact, {@code aud} one of
     * the accepted audiences, {@code exp}); empty for any other token. Blocking (discovery, JWKS).
     *
     * @throws KeysUnavailableException when the provider cannot be read
     */
    public Optional<JWTClaimsSet> providerClaims(String token) {
        if (oidc == null) {
            return Optional.empty();
        }
        JWTClaimsSet claims;
        try {
            claims = oidcProcessor.process(token, null);
        } catch (KeySourceException | OidcIssuer.IssuerUnavailableException e) {
            throw new KeysUnavailableException(e);
        } catch (Exception e) {
            if (e.getCause() instanceof OidcIssuer.IssuerUnavailableException unavailable) {
                throw new KeysUnavailableException(unavailable);
            }
            log.debug("refused a token of the OpenID provider: {}", e.getMessage());
            return Optional.empty();
        }
        return Optional.of(claims);
    }

    /**
     * The user a provider's verified claims name: {@code sub}, or with {@code user-claim=email} the email when the
     * provider does not say it is unverified (a mapping by an address nobody proved would let anyone who can set
     * that address in the provider become that member).
     */
    public static Optional<AuthenticatedUser> userOf(JWTClaimsSet claims, String userClaim) {
        try {
            String subject = claims.getSubject();
            String email = claims.getStringClaim("email");
            if (OidcProperties.EMAIL.equals(userClaim)) {
                Boolean verified = claims.getBooleanClaim("email_verified");
                if (email == null || email.isBlank() || Boolean.FALSE.equals(verified)) {
                    return Optional.empty();
                }
                return Optional.of(new AuthenticatedUser(email, email));
            }
            return subject == null || subject.isBlank() ? Optional.empty() : Optional.of(new AuthenticatedUser(subject, email));
        } catch (java.text.ParseException e) {
            return Optional.empty();
        }
    }

    private static DefaultJWTProcessor<SecurityContext> oidcProcessor(OidcIssuer oidc, Duration skew) {
        DefaultJWTProcessor<SecurityContext> provider = new DefaultJWTProcessor<>();
        // the keys are looked up lazily: discovery and the JWKS are read on the first token, not at start-up
        JWKSource<SecurityContext> lazyKeys = (selector, context) -> oidc.keys().get(selector, context);
        provider.setJWSKeySelector(new JWSVerificationKeySelector<>(ASYMMETRIC, lazyKeys));
        // access tokens of some providers are typed at+jwt (RFC 9068): accept it beside JWT and none
        provider.setJWSTypeVerifier(new com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier<>(
                com.nimbusds.jose.JOSEObjectType.JWT, new com.nimbusds.jose.JOSEObjectType("at+jwt"), null));
        JWTClaimsSet exactIssuer = new JWTClaimsSet.Builder().issuer(oidc.properties().issuer()).build();
        DefaultJWTClaimsVerifier<SecurityContext> claims = new NotIssuedInTheFuture(
                new HashSet<>(oidc.properties().acceptedAudiences()), exactIssuer,
                new HashSet<>(Set.of("sub", "exp", "iss", "aud")));
        claims.setMaxClockSkew((int) Math.min(Integer.MAX_VALUE, skew.toSeconds()));
        provider.setJWTClaimsSetVerifier(claims);
        return provider;
    }

    private static JWSKeySelector<SecurityContext> hs256Selector(String secret) {
        if (secret == null) {
            return null;
        }
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("gateway.auth.jwt.hs256-secret must be at least " + MIN_SECRET_BYTES + " bytes");
        }
        return new JWSVerificationKeySelector<>(JWSAlgorithm.HS256, new ImmutableSecret<>(bytes));
    }

    private static JWSKeySelector<SecurityContext> jwksSelector(String jwksUrl) {
        if (jwksUrl == null) {
            return null;
        }
        try {
            JWKSource<SecurityContext> keys = JWKSourceBuilder.<SecurityContext>create(URI.create(jwksUrl).toURL()).build();
            return new JWSVerificationKeySelector<>(ASYMMETRIC, keys);
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("gateway.auth.jwt.jwks-url is not a valid URL: " + jwksUrl, e);
        }
    }

    /**
     * The library's checks ({@code exp}, {@code nbf}, issuer, audience, required claims) plus one it leaves
     * out: a token whose {@code iat} lies further ahead than the allowed clock skew was minted with a wrong
     * clock or to outlive its apparent age, and is refused.
     */
    static final class NotIssuedInTheFuture extends DefaultJWTClaimsVerifier<SecurityContext> {
        NotIssuedInTheFuture(String audience, JWTClaimsSet exactMatch, Set<String> required) {
            super(audience, exactMatch, required);
        }

        NotIssuedInTheFuture(Set<String> audiences, JWTClaimsSet exactMatch, Set<String> required) {
            super(audiences, exactMatch, required, new HashSet<>()); // nimbus asks them contains(null)
        }

        @Override
        public void verify(JWTClaimsSet claimsSet, SecurityContext context) throws BadJWTException {
            super.verify(claimsSet, context);
            Date issuedAt = claimsSet.getIssueTime();
            if (issuedAt != null && !DateUtils.isBefore(issuedAt, new Date(), getMaxClockSkew())) {
                throw new BadJWTException("JWT issued in the future");
            }
        }
    }

    /** The keys to verify a token with could not be fetched. */
    public static class KeysUnavailableException extends RuntimeException {
        KeysUnavailableException(Throwable cause) {
            super("the JWKS URL cannot be read: " + cause.getMessage(), cause);
        }
    }

    /** The configured OpenID provider, or null. */
    public OidcIssuer oidc() {
        return oidc;
    }
}
