package io.agentgateway.ingress.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.util.DateUtils;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.util.Date;
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
 */
@Component
public class JwtVerifier {
    private static final Logger log = LoggerFactory.getLogger(JwtVerifier.class);
    private static final int MIN_SECRET_BYTES = 32;
    private static final Set<JWSAlgorithm> ASYMMETRIC = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final boolean remoteKeys;

    public JwtVerifier(JwtProperties properties) {
        JWSKeySelector<SecurityContext> hs256 = hs256Selector(properties.hs256Secret());
        JWSKeySelector<SecurityContext> jwks = jwksSelector(properties.jwksUrl());
        this.remoteKeys = jwks != null;
        if (hs256 == null && jwks == null) {
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
}
