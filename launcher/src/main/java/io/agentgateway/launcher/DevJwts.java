package io.agentgateway.launcher;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * Signs user JWTs with the embedded default's HS256 secret: the demo owner's token, and the tokens
 * of tests and the benchmark. A real deployment gets its tokens from its identity provider (JWKS).
 */
public final class DevJwts {
    private DevJwts() {}

    public static String sign(String hs256SecretBase64, String userId, String email, Duration validFor) {
        try {
            JWTClaimsSet claims = new JWTClaimsSet.Builder()
                    .subject(userId)
                    .claim("email", email)
                    .issueTime(new Date())
                    .expirationTime(Date.from(Instant.now().plus(validFor)))
                    .build();
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
            jwt.sign(new MACSigner(secretBytes(hs256SecretBase64)));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a JWT", e);
        }
    }

    /** The configured secret is used as given (its bytes), matching the ingress verifier. */
    static byte[] secretBytes(String secret) {
        return secret.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
