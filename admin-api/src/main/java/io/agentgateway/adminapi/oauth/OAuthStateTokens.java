package io.agentgateway.adminapi.oauth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Uuids;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.SecretBox;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Signs, seals and verifies the {@code state} of an OAuth flow: a compact JWS (HS256, nimbus-jose-jwt) with
 * its own type and issuer under its own key ({@code gateway.oauth.state-key}), so that neither a user
 * JWT nor anything else the gateway signs can pass as a state. The signature binds the workspace, the
 * tool, the admin, the redirect URI and the admin's browser (the hash of its flow cookie); the expiry bounds
 * how long a leaked state is worth anything; the nonce lets the callback refuse a second use
 * ({@link OAuthStateUses}).
 *
 * <p>The JWS is then sealed with {@link SecretBox} (AES-256-GCM) under a key derived from the state key, because
 * the state travels through the upstream and the browser's address bar, and its claims (workspace id, admin
 * email) are nobody's business there. What the upstream gets is {@code v1.<base64url>}, opaque.
 */
@Component
class OAuthStateTokens {
    static final String NOT_CONFIGURED = "OAuth is not configured: gateway.oauth.state-key is not set";
    static final String MALFORMED = "state is not a valid OAuth state";
    static final String BAD_SIGNATURE = "state signature is invalid";
    static final String EXPIRED = "state has expired: start the connection again";

    private static final JOSEObjectType TYPE = new JOSEObjectType("oauth-state+jwt");
    private static final String ISSUER = "agent-action-gateway/oauth-state";
    private static final int MIN_KEY_BYTES = 32;
    private static final String SEALED_PREFIX = "v1.";

    private static final String BROWSER_CLAIM = "browser";
    /** Where the callback answers: {@value #RETURN_CONSOLE} (the console's tools page), absent: JSON. */
    private static final String RETURN_CLAIM = "return";
    private static final String RETURN_CONSOLE = "console";
    private static final byte[] SEALING_KEY_LABEL = "agent-action-gateway/oauth-state/seal/v1".getBytes(StandardCharsets.UTF_8);

    private final byte[] key;
    private final SecretBox seal;
    private final Clock clock = Clock.systemUTC();

    OAuthStateTokens(OAuthProperties properties) {
        this.key = key(properties.stateKey());
        this.seal = key == null ? null : SecretBox.fromBase64Key(Base64.getEncoder().encodeToString(sealingKey(key)));
    }

    /** A key of its own for sealing, derived from the state key: SHA-256(label || state key), never the signing key itself. */
    private static byte[] sealingKey(byte[] stateKey) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(SEALING_KEY_LABEL);
            return sha256.digest(stateKey);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static byte[] key(String base64) {
        if (base64 == null || base64.isBlank()) {
            return null;
        }
        byte[] bytes = Base64.getDecoder().decode(base64.strip());
        if (bytes.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("gateway.oauth.state-key must be base64 of at least 32 bytes");
        }
        return bytes;
    }

    /** 503 before any work is done when no key is configured. */
    void requireConfigured() {
        requireKey();
    }

    String sign(OAuthState state) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .subject(state.userId())
                .claim("email", state.email())
                .claim("workspace_id", state.workspaceId().toString())
                .claim("tool", state.tool().tool().wire())
                .claim("redirect_uri", state.redirectUri())
                .claim(BROWSER_CLAIM, state.browserBinding())
                .claim(RETURN_CLAIM, state.fromConsole() ? RETURN_CONSOLE : null)
                .jwtID(state.nonce())
                .issueTime(Date.from(clock.instant()))
                .expirationTime(Date.from(state.expiresAt()))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(TYPE).build(), claims);
        try {
            jwt.sign(new MACSigner(requireKey()));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign an OAuth state", e);
        }
        return seal.seal(jwt.serialize());
    }

    /**
     * The state's bindings, once its signature and expiry hold; otherwise a 400 that says which check
     * failed (the signature is checked before anything inside is believed).
     */
    OAuthState verify(String text) {
        byte[] key = requireKey();
        if (!text.startsWith(SEALED_PREFIX)) {
            throw ApiException.badRequest(MALFORMED);
        }
        String opened;
        try {
            opened = seal.open(text);
        } catch (IllegalArgumentException e) {
            // sealed under another key, or altered: the same answer as a signature that does not hold
            throw ApiException.badRequest(BAD_SIGNATURE);
        }
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(opened);
        } catch (ParseException e) {
            throw ApiException.badRequest(MALFORMED);
        }
        if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm()) || !TYPE.equals(jwt.getHeader().getType())) {
            throw ApiException.badRequest(MALFORMED);
        }
        try {
            if (!jwt.verify(new MACVerifier(key))) {
                throw ApiException.badRequest(BAD_SIGNATURE);
            }
        } catch (JOSEException e) {
            throw ApiException.badRequest(BAD_SIGNATURE);
        }
        try {
            return bindings(jwt.getJWTClaimsSet());
        } catch (ParseException e) {
            // a claim of the wrong type, in a state we signed: not ours to believe either way
            throw ApiException.badRequest(MALFORMED);
        }
    }

    private OAuthState bindings(JWTClaimsSet claims) throws ParseException {
        if (!ISSUER.equals(claims.getIssuer()) || claims.getExpirationTime() == null || claims.getJWTID() == null
                || claims.getSubject() == null) {
            throw ApiException.badRequest(MALFORMED);
        }
        Instant expiresAt = claims.getExpirationTime().toInstant();
        if (!clock.instant().isBefore(expiresAt)) {
            throw ApiException.badRequest(EXPIRED);
        }
        UUID workspaceId = Uuids.canonical(claims.getStringClaim("workspace_id")).map(UUID::fromString)
                .orElseThrow(() -> ApiException.badRequest(MALFORMED));
        OAuthTool tool = Tool.parse(claims.getStringClaim("tool")).flatMap(OAuthTool::of)
                .orElseThrow(() -> ApiException.badRequest(MALFORMED));
        String redirectUri = Optional.ofNullable(claims.getStringClaim("redirect_uri"))
                .orElseThrow(() -> ApiException.badRequest(MALFORMED));
        return new OAuthState(workspaceId, tool, claims.getSubject(), claims.getStringClaim("email"), claims.getJWTID(),
                redirectUri, expiresAt, claims.getStringClaim(BROWSER_CLAIM), RETURN_CONSOLE.equals(claims.getStringClaim(RETURN_CLAIM)));
    }

    private byte[] requireKey() {
        if (key == null) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, NOT_CONFIGURED);
        }
        return key;
    }
}
