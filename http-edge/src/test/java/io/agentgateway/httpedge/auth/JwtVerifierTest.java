package io.agentgateway.httpedge.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.sun.net.httpserver.HttpServer;
import io.agentgateway.ingresstestsupport.TestTokens;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JwtVerifierTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef-hs256";
    private static final Instant IN_TEN_MINUTES = Instant.now().plus(Duration.ofMinutes(10));

    private static HttpServer jwksServer;
    private static RSAKey rsaKey;
    private static ECKey ecKey;
    private static String jwksUrl;

    @BeforeAll
    static void serveJwks() throws Exception {
        rsaKey = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        ecKey = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        byte[] jwks = new JWKSet(java.util.List.of(rsaKey.toPublicJWK(), ecKey.toPublicJWK())).toString().getBytes(StandardCharsets.UTF_8);
        jwksServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        jwksServer.createContext("/jwks.json", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, jwks.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(jwks);
            }
        });
        jwksServer.start();
        jwksUrl = "http://127.0.0.1:" + jwksServer.getAddress().getPort() + "/jwks.json";
    }

    @AfterAll
    static void stopJwks() {
        jwksServer.stop(0);
    }

    private static JwtVerifier hs256Only() {
        return new JwtVerifier(new JwtProperties(SECRET, null, null, null));
    }

    @Test
    void aValidHs256TokenYieldsItsSubjectAndEmail() {
        String token = TestTokens.hs256(SECRET, TestTokens.claims("user-1", IN_TEN_MINUTES).build());

        assertThat(hs256Only().verify(token)).contains(new AuthenticatedUser("user-1", "user-1@example.test"));
        assertThat(hs256Only().mayBlock()).isFalse();
    }

    @Test
    void theEmailClaimIsOptional() {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject("user-2").expirationTime(java.util.Date.from(IN_TEN_MINUTES)).build();

        assertThat(hs256Only().verify(TestTokens.hs256(SECRET, claims))).contains(new AuthenticatedUser("user-2", null));
    }

    @Test
    void anExpiredTokenIsRefused() {
        String token = TestTokens.hs256(SECRET, TestTokens.claims("user-1", Instant.now().minus(Duration.ofMinutes(10))).build());

        assertThat(hs256Only().verify(token)).isEmpty();
    }

    @Test
    void aTokenIssuedFurtherInTheFutureThanTheClockSkewIsRefused() {
        // issue 14: "iat" was not looked at, so a token minted with a clock hours ahead passed
        JWTClaimsSet future = TestTokens.claims("user-1", Instant.now().plus(Duration.ofHours(3)))
                .issueTime(java.util.Date.from(Instant.now().plus(Duration.ofHours(2)))).build();
        JWTClaimsSet withinSkew = TestTokens.claims("user-1", IN_TEN_MINUTES)
                .issueTime(java.util.Date.from(Instant.now().plus(Duration.ofSeconds(20)))).build();
        JwtVerifier strict = new JwtVerifier(new JwtProperties(SECRET, null, null, null, Duration.ofSeconds(5)));
        JWTClaimsSet overFiveSeconds = TestTokens.claims("user-1", IN_TEN_MINUTES)
                .issueTime(java.util.Date.from(Instant.now().plus(Duration.ofSeconds(20)))).build();

        assertThat(hs256Only().verify(TestTokens.hs256(SECRET, future))).isEmpty();
        assertThat(hs256Only().verify(TestTokens.hs256(SECRET, withinSkew))).as("60 s of skew by default").isPresent();
        assertThat(strict.verify(TestTokens.hs256(SECRET, overFiveSeconds))).as("gateway.auth.jwt.max-clock-skew=PT5S").isEmpty();
    }

    @Test
    void aTokenWithoutExpiryIsRefused() {
        String token = TestTokens.hs256(SECRET, TestTokens.claims("user-1", null).build());

        assertThat(hs256Only().verify(token)).isEmpty();
    }

    @Test
    void aTokenWithoutSubjectIsRefused() {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().expirationTime(java.util.Date.from(IN_TEN_MINUTES)).build();

        assertThat(hs256Only().verify(TestTokens.hs256(SECRET, claims))).isEmpty();
    }

    @Test
    void aTokenSignedWithAnotherSecretIsRefused() {
        String token = TestTokens.hs256("another-secret-another-secret-another!!", TestTokens.claims("user-1", IN_TEN_MINUTES).build());

        assertThat(hs256Only().verify(token)).isEmpty();
    }

    @Test
    void aTamperedPayloadIsRefused() {
        String token = TestTokens.hs256(SECRET, TestTokens.claims("user-1", IN_TEN_MINUTES).build());
        String[] parts = token.split("\\.");
        String forged = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("{\"sub\":\"admin\",\"exp\":" + IN_TEN_MINUTES.getEpochSecond() + "}").getBytes(StandardCharsets.UTF_8));

        assertThat(hs256Only().verify(parts[0] + "." + forged + "." + parts[2])).isEmpty();
    }

    @Test
    void garbageAndUnsignedTokensAreRefused() {
        String unsigned = new com.nimbusds.jwt.PlainJWT(TestTokens.claims("user-1", IN_TEN_MINUTES).build()).serialize();

        assertThat(hs256Only().verify("not-a-jwt")).isEmpty();
        assertThat(hs256Only().verify(unsigned)).isEmpty();
    }

    @Test
    void issuerAndAudienceAreCheckedWhenConfigured() {
        JwtVerifier verifier = new JwtVerifier(new JwtProperties(SECRET, null, "https://issuer.test", "gateway"));
        String right = TestTokens.hs256(SECRET, TestTokens.claims("user-1", IN_TEN_MINUTES)
                .issuer("https://issuer.test").audience("gateway").build());
        String wrongIssuer = TestTokens.hs256(SECRET, TestTokens.claims("user-1", IN_TEN_MINUTES)
                .issuer("https://evil.test").audience("gateway").build());
        String wrongAudience = TestTokens.hs256(SECRET, TestTokens.claims("user-1", IN_TEN_MINUTES)
                .issuer("https://issuer.test").audience("other").build());
        String neither = TestTokens.hs256(SECRET, TestTokens.claims("user-1", IN_TEN_MINUTES).build());

        assertThat(verifier.verify(right)).isPresent();
        assertThat(verifier.verify(wrongIssuer)).isEmpty();
        assertThat(verifier.verify(wrongAudience)).isEmpty();
        assertThat(verifier.verify(neither)).isEmpty();
    }

    @Test
    void rs256AndEs256TokensAreVerifiedWithKeysFromTheJwksUrl() throws Exception {
        JwtVerifier verifier = new JwtVerifier(new JwtProperties(null, jwksUrl, null, null));
        String rs256 = TestTokens.sign(new RSASSASigner(rsaKey), JWSAlgorithm.RS256, "rsa-1", TestTokens.claims("rsa-user", IN_TEN_MINUTES).build());
        String es256 = TestTokens.sign(new ECDSASigner(ecKey), JWSAlgorithm.ES256, "ec-1", TestTokens.claims("ec-user", IN_TEN_MINUTES).build());

        assertThat(verifier.mayBlock()).isTrue();
        assertThat(verifier.verify(rs256)).map(AuthenticatedUser::userId).contains("rsa-user");
        assertThat(verifier.verify(es256)).map(AuthenticatedUser::userId).contains("ec-user");
    }

    @Test
    void aJwksTokenSignedByAnUnknownKeyIsRefused() throws Exception {
        JwtVerifier verifier = new JwtVerifier(new JwtProperties(null, jwksUrl, null, null));
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("rsa-1").generate();

        String token = TestTokens.sign(new RSASSASigner(stranger), JWSAlgorithm.RS256, "rsa-1", TestTokens.claims("user", IN_TEN_MINUTES).build());

        assertThat(verifier.verify(token)).isEmpty();
    }

    @Test
    void aTokenCannotChooseAnAlgorithmTheConfigurationDidNotEnable() throws Exception {
        JwtVerifier jwksOnly = new JwtVerifier(new JwtProperties(null, jwksUrl, null, null));
        JwtVerifier hs256Only = hs256Only();
        String hs256 = TestTokens.hs256(SECRET, TestTokens.claims("user-1", IN_TEN_MINUTES).build());
        String rs256 = TestTokens.sign(new RSASSASigner(rsaKey), JWSAlgorithm.RS256, "rsa-1", TestTokens.claims("user-1", IN_TEN_MINUTES).build());

        assertThat(jwksOnly.verify(hs256)).isEmpty();
        assertThat(hs256Only.verify(rs256)).isEmpty();
    }

    @Test
    void bothKindsWorkWhenBothAreConfigured() throws Exception {
        JwtVerifier both = new JwtVerifier(new JwtProperties(SECRET, jwksUrl, null, null));
        String hs256 = TestTokens.hs256(SECRET, TestTokens.claims("hs-user", IN_TEN_MINUTES).build());
        String rs256 = TestTokens.sign(new RSASSASigner(rsaKey), JWSAlgorithm.RS256, "rsa-1", TestTokens.claims("rs-user", IN_TEN_MINUTES).build());

        assertThat(both.verify(hs256)).map(AuthenticatedUser::userId).contains("hs-user");
        assertThat(both.verify(rs256)).map(AuthenticatedUser::userId).contains("rs-user");
    }

    @Test
    void anUnreachableJwksIsReportedAsSuchNotAsABadToken() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        JwtVerifier verifier = new JwtVerifier(new JwtProperties(null, "http://127.0.0.1:" + closedPort + "/jwks.json", null, null));
        String token = TestTokens.sign(new RSASSASigner(rsaKey), JWSAlgorithm.RS256, "rsa-1", TestTokens.claims("u", IN_TEN_MINUTES).build());

        assertThatThrownBy(() -> verifier.verify(token)).isInstanceOf(JwtVerifier.KeysUnavailableException.class);
    }

    @Test
    void aShortSecretIsAConfigurationError() {
        assertThatThrownBy(() -> new JwtVerifier(new JwtProperties("too-short", null, null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 32 bytes");
    }

    @Test
    void withoutAnyKeyEveryTokenIsRefused() {
        JwtVerifier none = new JwtVerifier(new JwtProperties(null, null, null, null));

        assertThat(none.verify(TestTokens.hs256(SECRET, TestTokens.claims("user-1", IN_TEN_MINUTES).build()))).isEmpty();
    }
}
