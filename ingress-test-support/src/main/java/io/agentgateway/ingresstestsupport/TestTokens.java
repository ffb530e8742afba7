package io.agentgateway.ingresstestsupport;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/** Signed user JWTs for tests. */
public final class TestTokens {
    private TestTokens() {}

    /** A valid HS256 token of the shared test ingress for {@code userId}. */
    public static String user(String userId) {
        return hs256(RunningIngress.JWT_SECRET, claims(userId, Instant.now().plus(Duration.ofMinutes(10))).build());
    }

    public static JWTClaimsSet.Builder claims(String userId, Instant expiresAt) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(userId).claim("email", userId + "@example.test");
        return expiresAt == null ? claims : claims.expirationTime(Date.from(expiresAt));
    }

    public static String hs256(String secret, JWTClaimsSet claims) {
        try {
            return sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)), JWSAlgorithm.HS256, null, claims);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String sign(JWSSigner signer, JWSAlgorithm algorithm, String keyId, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(algorithm).keyID(keyId).build(), claims);
            jwt.sign(signer);
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
